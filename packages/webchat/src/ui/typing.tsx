import { format } from '../i18n.js';
import { useTexts } from './texts.js';

/** Three dots while the bot is typing, announced as "<bot> is typing". */
export function Typing({ botName }: { botName: string }) {
  const s = useTexts();
  return (
    <div class="pw-typing" role="status" aria-label={format(s.typing, { botName })}>
      <span />
      <span />
      <span />
    </div>
  );
}
