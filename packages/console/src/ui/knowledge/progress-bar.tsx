/**
 * A progress bar people and assistive technology read: `role="progressbar"` with its value, its name, and
 * the same progress in words beside it. The fill's width is set through the style object (element.style,
 * which the Console's CSP allows), never a style attribute string. Without `value` it is indeterminate.
 */
export function ProgressBar({
  label,
  value,
  words,
}: {
  label: string;
  value?: number | undefined;
  words: string;
}) {
  const percent = value === undefined ? undefined : Math.max(0, Math.min(100, Math.round(value)));
  return (
    <div class="progress">
      <div
        class={percent === undefined ? 'progress-track progress-busy' : 'progress-track'}
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={words}
      >
        <div class="progress-fill" style={{ width: `${percent ?? 30}%` }} />
      </div>
      <span class="progress-words">{words}</span>
    </div>
  );
}
