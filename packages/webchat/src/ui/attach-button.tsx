import { AttachIcon } from './icons.js';
import { useTexts } from './texts.js';

/** A paper-clip button over a file input; chosen files go to `onFiles`. */
export function AttachButton({ onFiles }: { onFiles: (files: FileList | null) => void }) {
  const s = useTexts();
  return (
    <span class="pw-icon-btn pw-file">
      <AttachIcon />
      <input
        type="file"
        multiple
        aria-label={s.attachFile}
        onChange={(e) => {
          const target = e.target as HTMLInputElement;
          onFiles(target.files);
          target.value = '';
        }}
      />
    </span>
  );
}
