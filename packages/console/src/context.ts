import type { Account, Client, Workspace } from '@parley/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What every page of a signed-in person reads: who, where, and the client for that workspace. */
export interface ConsoleState {
  account: Account;
  /** The client for the chosen workspace (its `x-workspace-id`), authenticated by the session cookie. */
  client: Client;
  workspace: Workspace | undefined;
  workspaces: Workspace[];
  chooseWorkspace(id: string): void;
  /** A workspace was changed (its settings saved): the switcher and every page show the new values. */
  workspaceChanged(workspace: Workspace): void;
  accountChanged(account: Account): void;
  /** The session is over (signed out, expired or revoked): back to Sign in. */
  signedOut(): void;
}

export const ConsoleContext = createContext<ConsoleState | null>(null);

/** The signed-in state; only inside `SignedIn`. */
export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole() outside a signed-in console');
  return state;
}
