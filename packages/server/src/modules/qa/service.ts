import type { Logger } from '../../logger.js';
import type { Embedder } from '../../search/types.js';
import type { QaService } from './contract.js';
import { qaCorrections, type YieldsToPassages } from './corrections.js';
import { type QaEntriesDeps, qaEntries } from './entries.js';
import { qaMatcher } from './matching.js';

export type { AskedQuestion, LaterAnswer, QaMatch, QaService } from './contract.js';

/** What the Q&A service is built from: what its entries are, and what the lookup and the corrections need. */
export interface QaDeps extends Omit<QaEntriesDeps, 'embedder'> {
  /** The search embedder: wordings get its vectors (null: entries match by words only). */
  embedder: Embedder | null;
  logger?: Logger | undefined;
  /** Whether a reply yields an entry's question to the passages, for the inbox's mark (absent: it never does). */
  yieldsToPassages?: YieldsToPassages | undefined;
}

/** A bot's Q&A entries ({@link QaService}): their records, the lookup of a visitor's question, corrections. */
export function qaService(deps: QaDeps): QaService {
  const matcher = qaMatcher({ db: deps.db, embedder: deps.embedder, logger: deps.logger });
  const corrections = qaCorrections({
    db: deps.db,
    match: matcher.rememberedMatch,
    yieldsToPassages: deps.yieldsToPassages,
  });
  return {
    ...qaEntries(deps),
    match: (botId, question) => matcher.match(botId, question),
    answeredSince: corrections.answeredSince,
  };
}
