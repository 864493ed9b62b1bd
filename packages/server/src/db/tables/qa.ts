/* Row types of Q&A entries, their wordings and revisions (modules/qa). Timestamps are ISO 8601 text;
 * booleans are 0/1. */

/** A Q&A entry of a bot (modules/qa). */
export interface QaEntriesTable {
  id: string;
  bot_id: string;
  knowledge_base_id: string | null;
  /** JSON array of the wordings, in order. */
  questions: string;
  /** Markdown. */
  answer: string;
  /** JSON object. */
  tags: string;
  enabled: number;
  /** Lower-case wordings, answer and tags, for the list's search. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

/** One wording of a Q&A entry: its content terms and, once embedded, its vector and the model's id. */
export interface QaWordingsTable {
  entry_id: string;
  position: number;
  bot_id: string;
  text: string;
  /** Space-separated stems of its content words. */
  terms: string;
  /** Little-endian float32 vector (null until the `qa_embed` job ran, or without an embedder). */
  vector: Buffer | Uint8Array | null;
  model_id: string | null;
}

/** How many times a bot's Q&A entries changed: a process's cached wordings of the bot hold while it stays. */
export interface QaRevisionsTable {
  bot_id: string;
  revision: number;
}
