import { WebchatError } from './config.js';

/**
 * Every text the webchat shows or announces. `{botName}`, `{count}` and `{name}` are replaced.
 * Errors are shown as these sentences; the `error` event keeps the technical message.
 */
const EN = {
  composerPlaceholder: 'Type your message…',
  composerLabel: 'Message',
  send: 'Send',
  attachFile: 'Attach a file',
  dropFiles: 'Drop files to send them',
  openChat: 'Open chat with {botName}',
  closeChat: 'Close chat',
  unread: 'unread',
  newConversation: 'Start a new conversation',
  messages: 'Messages',
  newMessages: 'New messages',
  suggestions: 'Suggested questions',
  botSaid: '{botName} said:',
  youSaid: 'You said:',
  typing: '{botName} is typing',
  chooseOption: 'Choose an option',
  choose: 'Choose…',
  image: 'Image',
  file: 'File',
  audio: 'Audio',
  video: 'Video',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  feedbackComment: 'What could be better? (optional)',
  feedbackSend: 'Send feedback',
  feedbackSkip: 'Skip',
  feedbackThanks: 'Thanks for your feedback.',
  uploading: 'Uploading {name}…',
  debug: 'Debug',
  poweredBy: 'Powered by Parley',
  errorConnect: 'Could not connect to the chat. Please try again.',
  errorConnection: 'The connection to the chat was lost. Reconnecting…',
  errorSend: 'Your message could not be sent. Please try again.',
  errorUpload: 'The file {name} could not be uploaded.',
  errorUploadTooLarge: 'The file {name} is too large.',
  errorFeedback: 'Your feedback could not be sent.',
  errorRestart: 'Could not start a new conversation.',
  talkToPerson: 'Talk to a person',
  personSaid: '{name} said:',
  emailLabel: 'Your e-mail address',
  emailSend: 'Send my address',
};

/** The keys of the UI texts. */
export type StringKey = keyof typeof EN;
/** The UI texts of one locale. */
export type Strings = Record<StringKey, string>;

const FR: Strings = {
  composerPlaceholder: 'Écrivez votre message…',
  composerLabel: 'Message',
  send: 'Envoyer',
  attachFile: 'Joindre un fichier',
  dropFiles: 'Déposez des fichiers pour les envoyer',
  openChat: 'Ouvrir la discussion avec {botName}',
  closeChat: 'Fermer la discussion',
  unread: 'non lus',
  newConversation: 'Nouvelle conversation',
  messages: 'Messages',
  newMessages: 'Nouveaux messages',
  suggestions: 'Questions suggérées',
  botSaid: '{botName} a écrit :',
  youSaid: 'Vous avez écrit :',
  typing: '{botName} est en train d’écrire',
  chooseOption: 'Choisissez une option',
  choose: 'Choisir…',
  image: 'Image',
  file: 'Fichier',
  audio: 'Audio',
  video: 'Vidéo',
  helpful: 'Utile',
  notHelpful: 'Pas utile',
  feedbackComment: 'Que pourrions-nous améliorer ? (facultatif)',
  feedbackSend: 'Envoyer l’avis',
  feedbackSkip: 'Passer',
  feedbackThanks: 'Merci pour votre avis.',
  uploading: 'Envoi de {name}…',
  debug: 'Débogage',
  poweredBy: 'Propulsé par Parley',
  errorConnect: 'Impossible de se connecter à la discussion. Veuillez réessayer.',
  errorConnection: 'La connexion à la discussion a été perdue. Reconnexion…',
  errorSend: 'Votre message n’a pas pu être envoyé. Veuillez réessayer.',
  errorUpload: 'Le fichier {name} n’a pas pu être envoyé.',
  errorUploadTooLarge: 'Le fichier {name} est trop volumineux.',
  errorFeedback: 'Votre avis n’a pas pu être envoyé.',
  errorRestart: 'Impossible de démarrer une nouvelle conversation.',
  talkToPerson: 'Parler à une personne',
  personSaid: '{name} a dit :',
  emailLabel: 'Votre adresse e-mail',
  emailSend: 'Envoyer mon adresse',
};

/** The shipped locales. */
export const LOCALES: Record<string, Strings> = { en: EN, fr: FR };

/** The shipped locale for a language tag (`fr-CA` → `fr`), or undefined. */
export function shippedLocale(locale: string): string | undefined {
  const lower = locale.toLowerCase();
  if (LOCALES[lower]) return lower;
  const base = lower.split('-')[0] ?? '';
  return LOCALES[base] ? base : undefined;
}

/** Checks `{locale?, strings?}` given to init or config: an error names the bad key; nothing applies then. */
export function checkLocale(locale: unknown, strings: unknown): WebchatError | undefined {
  if (locale !== undefined && (typeof locale !== 'string' || !shippedLocale(locale))) {
    return new WebchatError(
      `locale ${JSON.stringify(locale)} is not shipped (${Object.keys(LOCALES).join(', ')}); translate with strings`,
      [{ field: 'locale', message: 'is not a shipped locale' }],
    );
  }
  if (strings === undefined) return undefined;
  if (typeof strings !== 'object' || strings === null || Array.isArray(strings))
    return new WebchatError('strings must be an object of UI texts', [
      { field: 'strings', message: 'must be an object' },
    ]);
  for (const [key, value] of Object.entries(strings)) {
    if (!(key in EN))
      return new WebchatError(`strings.${key} is not a webchat string`, [
        { field: `strings.${key}`, message: 'is not a webchat string' },
      ]);
    if (typeof value !== 'string')
      return new WebchatError(`strings.${key} must be a string`, [
        { field: `strings.${key}`, message: 'must be a string' },
      ]);
  }
  return undefined;
}

/** The texts of a locale with the page's overrides (later ones winning). */
export function resolveStrings(locale: string, ...overrides: Partial<Strings>[]): Strings {
  return Object.assign({}, LOCALES[shippedLocale(locale) ?? 'en'], ...overrides);
}

/** Fills `{name}` placeholders. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (all, key: string) => (key in values ? String(values[key]) : all));
}
