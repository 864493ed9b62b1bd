import type { Bot, BotReplies } from '@parley/client';
import { useState } from 'preact/hooks';
import { useBotUpdate } from './bot-update.js';
import { Notice } from './notice.js';

/** The bot's built-in words (the server's defaults), shown as placeholders: an empty field keeps them. */
const DEFAULTS: Required<BotReplies> = {
  notFound: "I couldn't find anything about that in my knowledge base.",
  intro: 'Here is what I found in my knowledge base:',
  clarify: 'Did you mean one of these?',
};

const FIELDS: ReadonlyArray<{ key: keyof BotReplies; label: string; hint: string; max: number }> = [
  {
    key: 'notFound',
    label: 'When nothing is found',
    hint: 'Markdown; add a contact line or link (http(s), mailto: or tel:).',
    max: 1000,
  },
  {
    key: 'intro',
    label: 'Before quotes',
    hint: 'The line above the quoted passages of an answer.',
    max: 300,
  },
  {
    key: 'clarify',
    label: 'Asking back',
    hint: 'The question above the choices when the bot is unsure which topic is meant.',
    max: 300,
  },
];

/** The bot's own words: its "not found" reply, the intro before quotes and the question it asks back. */
export function RepliesForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save: saveBot } = useBotUpdate(bot.id, onSaved);
  const [values, setValues] = useState<BotReplies>(bot.replies);

  async function save(event: Event) {
    event.preventDefault();
    const replies: BotReplies = {};
    for (const { key } of FIELDS) {
      const text = values[key]?.trim();
      if (text) replies[key] = text;
    }
    await saveBot({ replies }, 'Replies saved: the bot uses them from its next answer.');
  }

  return (
    <form class="card stack" onSubmit={save}>
      <h2>Replies</h2>
      <p>The bot's own words in its answers. Leave a field empty to keep the default shown in it.</p>
      {FIELDS.map(({ key, label, hint, max }) => (
        <div class="field" key={key}>
          <label for={`bot-replies-${key}`}>{label}</label>
          <textarea
            id={`bot-replies-${key}`}
            rows={key === 'notFound' ? 3 : 2}
            maxLength={max}
            placeholder={DEFAULTS[key]}
            aria-describedby={`bot-replies-${key}-hint`}
            value={values[key] ?? ''}
            onInput={(event) => setValues({ ...values, [key]: event.currentTarget.value })}
          />
          <p id={`bot-replies-${key}-hint`} class="hint">
            {hint}
          </p>
        </div>
      ))}
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          Save replies
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
