import { useEffect } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useLoad } from '../../hooks.js';
import { useQueryClient } from '../../query.js';

/** The cache keys of what the desk shows of a bot: lists, counts, and each conversation's parts. */
export const deskKeys = {
  conversations: (ws: string | undefined, botId: string) => ['conversations', ws, botId] as const,
  counts: (ws: string | undefined, botId: string) => ['conversation-counts', ws, botId] as const,
  conversation: (ws: string | undefined, botId: string, id: string) =>
    ['conversation', ws, botId, id] as const,
  messages: (ws: string | undefined, botId: string, id: string) =>
    ['conversation-messages', ws, botId, id] as const,
  handoff: (ws: string | undefined, botId: string, id: string) =>
    ['conversation-handoff', ws, botId, id] as const,
  notes: (ws: string | undefined, botId: string, id: string) =>
    ['conversation-notes', ws, botId, id] as const,
};

/** The prefixes of every key above for one bot: what a change in any of its conversations may touch. */
const botPrefixes = (ws: string | undefined, botId: string) =>
  [
    'conversations',
    'conversation-counts',
    'conversation',
    'conversation-messages',
    'conversation-handoff',
    'conversation-notes',
  ].map((name) => [name, ws, botId]);

/**
 * Follows the bot's conversations live while an inbox page is shown, through the Admin API's desk stream
 * (Server-Sent Events, no polling): each change marks what it touches stale, so the lists, counts and the
 * open conversation are read again at once; on (re)connection everything is read again (nothing missed).
 */
export function useDeskLive(botId: string): void {
  const { client, workspace } = useConsole();
  const queries = useQueryClient();
  const ws = workspace?.id;
  useEffect(() => {
    const stop = new AbortController();
    const refresh = (conversationId?: string) => {
      for (const prefix of botPrefixes(ws, botId)) {
        // A change names its conversation: the other conversations' transcripts are left alone.
        const one =
          conversationId !== undefined &&
          prefix[0] !== 'conversations' &&
          prefix[0] !== 'conversation-counts';
        void queries.invalidateQueries({ queryKey: one ? [...prefix, conversationId] : prefix });
      }
    };
    (async () => {
      const stream = client.listenBotConversations(
        { id: botId },
        { signal: stop.signal, onOpen: (reconnected) => reconnected && refresh() },
      );
      for await (const signal of stream) {
        if (signal.type === 'conversation_changed') refresh(signal.data.conversationId);
        else if (signal.type === 'resync') refresh();
      }
    })().catch(() => {
      // The stream could not open (signed out, no right): the pages show what they read; nothing live.
    });
    return () => stop.abort();
  }, [client, queries, ws, botId]);
}

/** The desk's counts (Waiting, Mine, All, Resolved), kept fresh by useDeskLive. */
export function useDeskCounts(botId: string) {
  const { client, workspace } = useConsole();
  return useLoad(deskKeys.counts(workspace?.id, botId), () =>
    client.getBotConversationCounts({ id: botId }).then((r) => r.counts),
  );
}
