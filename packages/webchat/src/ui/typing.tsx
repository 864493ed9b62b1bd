import { format } from '../i18n.js';
import { useTexts } from './texts.js';

/**
 * Three dots while the bot or a person types, announced as "<name> is typing"; a person's (human handoff)
 * is written above them too, so the visitor sees who answers.
 */
export function Typing({ name, person }: { name: string; person: boolean }) {
  const s = useTexts();
  const label = format(s.typing, { botName: name });
  return (
    <>
      {person && (
        <span class="pw-agent pw-typist" aria-hidden="true">
          {label}
        </span>
      )}
      <div class="pw-typing" role="status" aria-label={label}>
        <span />
        <span />
        <span />
      </div>
    </>
  );
}
