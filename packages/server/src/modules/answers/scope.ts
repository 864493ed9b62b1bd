import type { FilesContext } from '../files/service.js';
import type { KnowledgeBaseService } from '../knowledge/contract.js';

/** The files a bot answers from: those its knowledge bases link, or all its files when it has none. */
export interface KnowledgeScope {
  knowledgeBaseIds: string[];
  /** The linked files; absent when the bot has no knowledge base (all its files). */
  fileIds?: string[];
}

/** A bot's {@link KnowledgeScope}, read as the bot (`ctx`). */
export async function knowledgeScope(
  knowledgeBases: Pick<KnowledgeBaseService, 'list' | 'fileIdsOf'>,
  ctx: FilesContext,
): Promise<KnowledgeScope> {
  const ids: string[] = [];
  let nextToken: string | undefined;
  do {
    const page = await knowledgeBases.list(ctx, { pageSize: 100, nextToken });
    ids.push(...page.items.map((kb) => kb.id));
    nextToken = page.nextToken;
  } while (nextToken);
  if (ids.length === 0) return { knowledgeBaseIds: [] };
  return { knowledgeBaseIds: ids, fileIds: await knowledgeBases.fileIdsOf(ctx, ids) };
}

/** The context a bot reads its own files and knowledge bases in. */
export function botContext(workspaceId: string, botId: string): FilesContext {
  return { actor: { kind: 'bot', botId }, botId, workspaceId };
}
