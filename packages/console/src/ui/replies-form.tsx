import type { Bot, BotReplies, BotReplyTexts } from '@parley/client';
import { useState } from 'preact/hooks';
import { type MessageKey, t } from '../i18n.js';
import { useBotUpdate } from './bot-update.js';
import { LANGUAGES } from './designer/fields.js';
import { Notice } from './notice.js';
import { SelectField } from './select-field.js';

/** The bot's built-in English words (the server's defaults), shown as placeholders: an empty field keeps them. */
const ENGLISH: Required<BotReplyTexts> = {
  notFound: "I couldn't find anything about that in my knowledge base.",
  intro: 'Here is what I found in my knowledge base:',
  clarify: 'Did you mean one of these?',
  handoffWaiting: "I'm getting a person to help you. Please stay here: they will reply in this chat.",
  handoffJoined: "You're now talking to {name}.",
  handoffLeft: '{name} left; the bot is back.',
  handoffClosed:
    'Sorry, nobody answers at this hour. Leave your e-mail address and a person will write to you; meanwhile I am here to help.',
  handoffTimeout:
    'Sorry, nobody is free to answer right now. Leave your e-mail address and a person will write to you; meanwhile I am here to help.',
};

type Field = keyof BotReplyTexts;
const FIELDS: ReadonlyArray<{ key: Field; label: MessageKey; hint: MessageKey; max: number; rows: number }> =
  [
    { key: 'notFound', label: 'replies.notFound', hint: 'replies.notFoundHint', max: 1000, rows: 3 },
    { key: 'intro', label: 'replies.intro', hint: 'replies.introHint', max: 300, rows: 2 },
    { key: 'clarify', label: 'replies.clarify', hint: 'replies.clarifyHint', max: 300, rows: 2 },
    { key: 'handoffWaiting', label: 'replies.waiting', hint: 'replies.waitingHint', max: 500, rows: 2 },
    { key: 'handoffJoined', label: 'replies.joined', hint: 'replies.nameHint', max: 500, rows: 1 },
    { key: 'handoffLeft', label: 'replies.left', hint: 'replies.nameHint', max: 500, rows: 1 },
    { key: 'handoffClosed', label: 'replies.closed', hint: 'replies.emailHint', max: 500, rows: 2 },
    { key: 'handoffTimeout', label: 'replies.timeout', hint: 'replies.emailHint', max: 500, rows: 2 },
  ];

/** The texts of each language as the form holds them: the default language's under `''`, others by tag. */
type Texts = Record<string, BotReplyTexts>;

/** The bot's texts, by language: the top-level ones under `''`. */
function textsOf(replies: BotReplies): Texts {
  const { language: _language, locales, ...own } = replies;
  return { '': own, ...locales };
}

/** The texts of one language with the empty fields left out (trimmed). */
function filled(texts: BotReplyTexts | undefined): BotReplyTexts {
  const out: BotReplyTexts = {};
  for (const { key } of FIELDS) {
    const text = texts?.[key]?.trim();
    if (text) out[key] = text;
  }
  return out;
}

/**
 * The bot's own words: its "not found" reply, the intro before quotes, the question it asks back and its handoff
 * messages, in its default language and per language (a language picker).
 */
export function RepliesForm({ bot, onSaved }: { bot: Bot; onSaved(): void }) {
  const { pending, error, notice, save: saveBot } = useBotUpdate(bot.id, onSaved);
  const [language, setLanguage] = useState(bot.replies.language ?? 'en');
  const [texts, setTexts] = useState<Texts>(() => textsOf(bot.replies));
  const [editing, setEditing] = useState('');
  const shown = texts[editing] ?? {};
  const name = (tag: string) => LANGUAGES[tag] ?? tag;
  const otherLanguages = Object.keys(LANGUAGES).filter((tag) => tag !== language);

  async function save(event: Event) {
    event.preventDefault();
    // Texts kept for the language now made the default join the default's (those typed there first).
    const replies: BotReplies = { ...filled(texts[language]), ...filled(texts['']) };
    if (language !== 'en') replies.language = language;
    const locales: Record<string, BotReplyTexts> = {};
    for (const [tag, own] of Object.entries(texts)) {
      const kept = filled(own);
      if (tag && tag !== language && Object.keys(kept).length > 0) locales[tag] = kept;
    }
    if (Object.keys(locales).length > 0) replies.locales = locales;
    await saveBot({ replies }, t('replies.saved'));
  }

  return (
    <form class="card stack" onSubmit={save}>
      <h2>{t('replies.title')}</h2>
      <p>{t('replies.lead')}</p>
      <SelectField
        id="bot-replies-language"
        label={t('replies.defaultLanguage')}
        value={language}
        choices={Object.keys(LANGUAGES).map((tag) => ({ value: tag, label: name(tag) }))}
        onValue={setLanguage}
      />
      <SelectField
        id="bot-replies-editing"
        label={t('replies.editing')}
        value={editing}
        choices={[
          { value: '', label: t('replies.defaultTexts', { language: name(language) }) },
          ...otherLanguages.map((tag) => ({ value: tag, label: name(tag) })),
        ]}
        onValue={setEditing}
      />
      {FIELDS.map(({ key, label, hint, max, rows }) => (
        <div class="field" key={`${editing}-${key}`}>
          <label for={`bot-replies-${key}`}>{t(label)}</label>
          <textarea
            id={`bot-replies-${key}`}
            rows={rows}
            maxLength={max}
            placeholder={
              (editing || language) === 'en'
                ? ENGLISH[key]
                : t('replies.builtIn', { language: name(editing || language) })
            }
            aria-describedby={`bot-replies-${key}-hint`}
            value={shown[key] ?? ''}
            onInput={(event) =>
              setTexts({ ...texts, [editing]: { ...shown, [key]: event.currentTarget.value } })
            }
          />
          <p id={`bot-replies-${key}-hint`} class="hint">
            {t(hint)}
          </p>
        </div>
      ))}
      <div class="actions">
        <button type="submit" class="primary" disabled={pending}>
          {t('replies.save')}
        </button>
      </div>
      <Notice error={error} done={notice} />
    </form>
  );
}
