const WORKSPACE_KEY = 'parley.console.workspace';

/** The workspace this browser chose last, if any (storage may be refused: then nothing is remembered). */
export function rememberedWorkspace(): string | undefined {
  try {
    return window.localStorage.getItem(WORKSPACE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Remembers the chosen workspace for the next visit. */
export function rememberWorkspace(id: string): void {
  try {
    window.localStorage.setItem(WORKSPACE_KEY, id);
  } catch {
    // Private mode or storage turned off: the choice lasts for this page only.
  }
}
