import type { ListQaEntriesQuery, QaEntry, QaEntryFields } from '@parley/protocol';
import type { Actor } from '../../access/principal.js';
import type { Page } from '../../http/pagination.js';

/** The payload of a `qa_embed` job: embed the wordings of one entry that have no vector of the model yet. */
export interface QaEmbedJob {
  botId: string;
  entryId: string;
}

/** A visitor question matched to an entry: the entry, its answer, the wording it came closest to, and how. */
export interface QaMatch {
  entryId: string;
  /** The entry's answer (Markdown). */
  answer: string;
  /** The wording of the entry the question came closest to. */
  wording: string;
  /**
   * `words`: its content words overlap enough; `meaning`: the embedder's vectors are close enough; `answer`: it
   * asks what the entry's answer says (a sentence of it close by meaning, the entry holding its words), clearly
   * more than any other entry's (then `wording` is that sentence).
   */
  by: 'words' | 'meaning' | 'answer';
  /** The score of that match (word overlap, or cosine similarity), and the bar it passed. */
  score: number;
  bar: number;
  /** By `answer`: how far the entry's score led the next entry's (at least its lead bar). */
  lead?: number;
}

/** A visitor question and when it was asked (the inbox asks whether an entry answers it now). */
export interface AskedQuestion {
  text: string;
  askedAt: string;
}

/** The enabled entry that answers an asked question now, created or last changed after it was asked. */
export interface LaterAnswer {
  entryId: string;
  /** When the entry was last saved (created, changed or switched on): since when the bot answers the question. */
  since: string;
}

/**
 * A bot's Q&A entries (Admin API `/v1/admin/bots/{id}/qa`): wordings of a question and the answer the bot gives
 * to them before any passage search. Viewers read, developers and above write (`qa.read`, `qa.write`); another
 * workspace's bot is 404. Each mutation writes its audit record in its transaction.
 */
export interface QaService {
  list(actor: Actor, botId: string, query: ListQaEntriesQuery): Promise<Page<QaEntry>>;
  /** 400 for a bad answer link, 404 for a knowledge base not of the bot, 403 QuotaExceeded past the limit. */
  create(actor: Actor, botId: string, fields: QaEntryFields): Promise<QaEntry>;
  get(actor: Actor, botId: string, entryId: string): Promise<QaEntry>;
  /** Replaces the entry's fields (an absent `tags`, `enabled` or `knowledgeBaseId` keeps its value). */
  update(actor: Actor, botId: string, entryId: string, fields: QaEntryFields): Promise<QaEntry>;
  delete(actor: Actor, botId: string, entryId: string): Promise<void>;
  /**
   * The enabled entry of the bot a visitor's question asks, if one is close enough (by its words, or with the
   * built-in embedder by meaning too); undefined otherwise. For the bot's knowledge answers (modules/answers).
   */
  match(botId: string, question: string): Promise<QaMatch | undefined>;
  /**
   * For each question (same order), the enabled entry that answers it now if that entry was saved after the
   * question was asked (a correction: the question was not answered then); undefined otherwise, and when a reply
   * would answer it with the passages instead (an entry found by its answer yields to them). For the inbox.
   */
  answeredSince(
    workspaceId: string,
    botId: string,
    questions: readonly AskedQuestion[],
  ): Promise<Array<LaterAnswer | undefined>>;
}
