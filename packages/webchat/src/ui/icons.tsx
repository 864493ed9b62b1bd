import type { ComponentChildren } from 'preact';

/** A 24×24 line icon drawn with the current text colour, hidden from screen readers (buttons carry the name). */
const StrokeIcon = ({
  size,
  children,
  flip,
}: {
  size: number;
  children: ComponentChildren;
  flip?: boolean;
}) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    stroke-width="2"
    aria-hidden="true"
    class={flip ? 'pw-flip' : undefined}
  >
    {children}
  </svg>
);
/** A 24×24 filled icon. */
const FillIcon = ({ size, d }: { size: number; d: string }) => (
  <svg width={size} height={size} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
    <path d={d} />
  </svg>
);

/** The launcher's speech bubble. */
export const ChatIcon = () => (
  <FillIcon size={26} d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z" />
);
/** An icon drawn by one line path. */
const strokePath = (size: number, d: string) => () => (
  <StrokeIcon size={size}>
    <path d={d} />
  </StrokeIcon>
);

/** A cross. */
export const CloseIcon = strokePath(20, 'M6 6l12 12M18 6L6 18');
/** A circular arrow. */
export const RestartIcon = strokePath(18, 'M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5');
/** A paper plane. */
export const SendIcon = () => <FillIcon size={20} d="M3 20l18-8L3 4v6l12 2-12 2z" />;
/** A paper clip. */
export const AttachIcon = strokePath(
  20,
  'M21 12l-8.5 8.5a5 5 0 0 1-7-7L14 5a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 8',
);
/** A sheet with a folded corner. */
export const FileIcon = strokePath(16, 'M14 3H6a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V9zM14 3v6h6');
/** A map pin. */
export const PinIcon = () => (
  <StrokeIcon size={16}>
    <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12z" />
    <circle cx="12" cy="10" r="2.5" />
  </StrokeIcon>
);
/** A thumb up, or down when `down`. */
export const ThumbIcon = ({ down }: { down?: boolean }) => (
  <StrokeIcon size={16} flip={down === true}>
    <path d="M7 10v11H4V10zM7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8A2 2 0 0 1 18.1 21H7" />
  </StrokeIcon>
);
