import { format } from '../i18n.js';
import type { Notice as NoticeText } from '../store.js';
import { useTexts } from './texts.js';

/** The last error, announced as an alert. */
export function Notice({ notice }: { notice: NoticeText }) {
  const s = useTexts();
  return (
    <div class="pw-notice" role="alert">
      {format(s[notice.key], notice.values ?? {})}
    </div>
  );
}
