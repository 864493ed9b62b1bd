// What the parts of the PassageIndex suite share (see ../passage-index.suite.ts): the model, vectors, and
// the index and database under test with the helpers that seed them.
import { seedBot } from '../../../../../testkit/src/server/seed-bot.js';
import { type FileOptions, seedFile } from '../../../../../testkit/src/server/seed-file.js';
import type { Db } from '../../../db/database.js';
import type { PassageSubtype } from '../../types.js';
import type { IndexedPassage, PassageIndex, PassageScope, VectorStoreKind } from '../passage-index.js';

export const MODEL = { id: 'test-model-4d', dimensions: 4 } as const;
export const vec = (...xs: number[]) => new Float32Array(xs);

/** What an adapter must show beside the common behaviour. */
export interface PassageIndexSuiteOptions {
  /** How this engine stores vectors. */
  vectorStore: VectorStoreKind;
  /** The index under test (default: createPassageIndex of the database), and what ends it before the database closes. */
  index?: { make: (db: Db) => PassageIndex; close: (db: Db) => Promise<void> };
}

/**
 * The suite's database and index (`db` and `index`, set once the suite has opened them), its options, and the
 * helpers that seed bots, files and passages in them.
 */
export function passageSuite(
  opened: () => { db: Db; index: PassageIndex },
  options: PassageIndexSuiteOptions,
) {
  const newBot = () => seedBot(opened().db);
  const newFile = (owner: { botId: string; workspaceId: string }, o: FileOptions = {}) =>
    seedFile(opened().db, owner, o);

  const passage = (
    position: number,
    content: string,
    more: Partial<IndexedPassage> = {},
    subtype: PassageSubtype = 'paragraph',
  ): IndexedPassage => ({ position, content, subtype, breadcrumb: [], ...more });

  /** A file of `owner` holding the given passages (embedded with MODEL when they carry a vector). */
  async function indexed(
    owner: { botId: string; workspaceId: string },
    passages: IndexedPassage[],
    o: FileOptions = {},
  ): Promise<{ fileId: string; ids: string[] }> {
    const fileId = await newFile(owner, o);
    const ids = await opened().index.replaceFilePassages({
      fileId,
      botId: owner.botId,
      passages,
      model: MODEL,
    });
    return { fileId, ids };
  }

  /** A new bot (newBot) with one file holding the given passages (see indexed). */
  async function indexedNewBot(passages: IndexedPassage[], o: FileOptions = {}) {
    const bot = await newBot();
    return { bot, ...(await indexed(bot, passages, o)) };
  }

  const all = (botId: string, more: Partial<PassageScope> = {}): PassageScope => ({
    botId,
    visibility: { kind: 'all' },
    ...more,
  });
  const fileIdsOf = (hits: { fileId: string }[]) => [...new Set(hits.map((h) => h.fileId))].sort();

  return {
    get db() {
      return opened().db;
    },
    get index() {
      return opened().index;
    },
    options,
    newBot,
    newFile,
    passage,
    indexed,
    indexedNewBot,
    all,
    fileIdsOf,
  };
}

/** What each part of the PassageIndex suite runs on. */
export type PassageSuite = ReturnType<typeof passageSuite>;
