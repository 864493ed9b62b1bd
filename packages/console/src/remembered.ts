// What this browser remembers between visits (localStorage). Storage may be refused (private mode, storage
// turned off): then nothing is remembered and every read answers as on a first visit.

const WORKSPACE_KEY = 'parley.console.workspace';
const SIGNED_IN_KEY = 'parley.console.signed-in';
const CHECKLIST_KEY = 'parley.console.checklist-dismissed';
const LANGUAGE_KEY = 'parley.console.language';

function read(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Refused: the choice lasts for this page only.
  }
}

/** The workspace this browser chose last, if any. */
export function rememberedWorkspace(): string | undefined {
  return read(WORKSPACE_KEY);
}

/** Remembers the chosen workspace for the next visit. */
export function rememberWorkspace(id: string): void {
  write(WORKSPACE_KEY, id);
}

/** The Console language chosen on this browser (the account page), if any. */
export const rememberedLanguage = (): string | undefined => read(LANGUAGE_KEY);

/** Remembers the chosen Console language; '' goes back to the browser's. */
export const rememberLanguage = (language: string): void => write(LANGUAGE_KEY, language);

/** Whether someone has signed in on this browser before (the first owner's password hint is then not shown). */
export function signedInHereBefore(): boolean {
  return read(SIGNED_IN_KEY) === 'yes';
}

/** Remembers that someone signed in on this browser. */
export function rememberSignedIn(): void {
  write(SIGNED_IN_KEY, 'yes');
}

/** Whether the ids kept under `key` (space-separated) hold `id`. */
const holds = (key: string, id: string) => (read(key) ?? '').split(' ').includes(id);

/** Adds `id` to the ids kept under `key`, the 50 latest kept. */
function add(key: string, id: string): void {
  const ids = (read(key) ?? '').split(' ').filter(Boolean);
  if (!ids.includes(id)) write(key, [...ids.slice(-49), id].join(' '));
}

/** Whether the member (a membership id: one person in one workspace) dismissed the first-run checklist here. */
export const checklistDismissed = (memberId: string) => holds(CHECKLIST_KEY, memberId);

/** Remembers that the member dismissed the first-run checklist. */
export const dismissChecklist = (memberId: string) => add(CHECKLIST_KEY, memberId);

const PLAYGROUND_KEY = 'parley.console.playground-tried';

/** Whether a question was asked in this bot's Playground on this browser (the first-run checklist's step). */
export const playgroundTried = (botId: string) => holds(PLAYGROUND_KEY, botId);

/** Remembers that this bot's Playground was asked a question. */
export const rememberPlaygroundTried = (botId: string) => add(PLAYGROUND_KEY, botId);

const DESK_ALERTS_KEY = 'parley.console.desk-alerts';

/** Whether this browser alerts of visitors waiting for a person (the inbox's opt-in: notification, title count). */
export const deskAlertsOn = () => read(DESK_ALERTS_KEY) === 'on';

/** Remembers the inbox's alerts as on or off on this browser. */
export const rememberDeskAlerts = (on: boolean) => write(DESK_ALERTS_KEY, on ? 'on' : 'off');
