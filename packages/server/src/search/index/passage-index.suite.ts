import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedBot } from '../../../../testkit/src/server/seed-bot.js';
import { type FileOptions, seedFile } from '../../../../testkit/src/server/seed-file.js';
import type { Db } from '../../db/database.js';
import { newBotId, newId } from '../../ids.js';
import type { PassageSubtype } from '../types.js';

export { type FileOptions, seedBot, seedFile };

import { createPassageIndex } from './create.js';
import {
  EmbeddingModelMismatchError,
  type IndexedPassage,
  type PassageIndex,
  type PassageScope,
  type VectorStoreKind,
} from './passage-index.js';

/** What an adapter must show beside the common behaviour. */
export interface PassageIndexSuiteOptions {
  /** How this engine stores vectors. */
  vectorStore: VectorStoreKind;
  /** The index under test (default: createPassageIndex of the database), and what ends it before the database closes. */
  index?: { make: (db: Db) => PassageIndex; close: (db: Db) => Promise<void> };
}

const MODEL = { id: 'test-model-4d', dimensions: 4 } as const;
const vec = (...xs: number[]) => new Float32Array(xs);

/**
 * The behaviour every PassageIndex adapter shares, run against a real database. `open` answers a database
 * with every migration applied and no passages; the suite closes it.
 */
export function runPassageIndexSuite(
  name: string,
  open: () => Promise<Db>,
  options: PassageIndexSuiteOptions,
): void {
  describe(`PassageIndex suite: ${name}`, () => {
    let db: Db;
    let index: PassageIndex;

    beforeAll(async () => {
      db = await open();
      index = options.index ? options.index.make(db) : createPassageIndex({ db });
    });
    afterAll(async () => {
      if (db) await options.index?.close(db);
      await db?.close();
    });

    const newBot = () => seedBot(db);
    const newFile = (owner: { botId: string; workspaceId: string }, o: FileOptions = {}) =>
      seedFile(db, owner, o);

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
      const ids = await index.replaceFilePassages({ fileId, botId: owner.botId, passages, model: MODEL });
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

    describe('model', () => {
      it('has no model and finds no vectors before one is set', async () => {
        expect(await index.modelInfo()).toBeUndefined();
        const bot = await newBot();
        expect(await index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 5)).toEqual([]);
        expect(await index.staleFiles(10)).toEqual([]);
        expect(await index.unembeddedFiles(10)).toEqual([]);
      });

      it('records the model and how vectors are stored; setting it again changes nothing', async () => {
        const first = await index.setModel(MODEL);
        expect(first).toEqual({ changed: true, info: { ...MODEL, vectorStore: options.vectorStore } });
        expect(await index.modelInfo()).toEqual({ ...MODEL, vectorStore: options.vectorStore });
        const again = await index.setModel({ ...MODEL });
        expect(again.changed).toBe(false);
      });

      it('refuses a model without an id or with an impossible width', async () => {
        await expect(index.setModel({ id: '', dimensions: 4 })).rejects.toThrow(/id/);
        await expect(index.setModel({ id: 'x', dimensions: 0 })).rejects.toThrow(/dimensions/);
        await expect(index.setModel({ id: 'x', dimensions: 2.5 })).rejects.toThrow(/dimensions/);
        expect((await index.modelInfo())?.id).toBe(MODEL.id);
      });
    });

    describe('writing passages', () => {
      it('stores a file’s passages in order with their type, page and breadcrumb', async () => {
        const { bot, fileId, ids } = await indexedNewBot([
          passage(0, 'Getting started', { breadcrumb: [] }, 'title'),
          passage(1, 'Install the package.', { breadcrumb: ['Getting started'], pageNumber: 2 }),
          passage(2, '- one\n- two', { breadcrumb: ['Getting started', 'Lists'] }, 'list'),
        ]);
        expect(ids).toHaveLength(3);
        expect(new Set(ids).size).toBe(3);
        const listed = await index.listFilePassages(fileId, 10);
        expect(listed).toEqual([
          {
            id: ids[0],
            fileId,
            botId: bot.botId,
            position: 0,
            subtype: 'title',
            content: 'Getting started',
            breadcrumb: [],
          },
          {
            id: ids[1],
            fileId,
            botId: bot.botId,
            position: 1,
            subtype: 'paragraph',
            pageNumber: 2,
            content: 'Install the package.',
            breadcrumb: ['Getting started'],
          },
          {
            id: ids[2],
            fileId,
            botId: bot.botId,
            position: 2,
            subtype: 'list',
            content: '- one\n- two',
            breadcrumb: ['Getting started', 'Lists'],
          },
        ]);
      });

      it('answers passages by id in the order asked, leaving unknown ids out', async () => {
        const { ids } = await indexedNewBot([passage(0, 'zero'), passage(1, 'one'), passage(2, 'two')]);
        const got = await index.getPassages([ids[2] as string, 'passage_unknown', ids[0] as string]);
        expect(got.map((p) => p.content)).toEqual(['two', 'zero']);
        expect(await index.getPassages([])).toEqual([]);
      });

      it('marks passages with the model of their vector', async () => {
        const { fileId } = await indexedNewBot([
          passage(0, 'with a vector', { embedding: vec(1, 0, 0, 0) }),
          passage(1, 'without'),
        ]);
        const [a, b] = await index.listFilePassages(fileId, 10);
        expect(a?.modelId).toBe(MODEL.id);
        expect(b).not.toHaveProperty('modelId');
      });

      it('replaces every passage of a file: the old ones are gone from reads and searches', async () => {
        const {
          bot,
          fileId,
          ids: old,
        } = await indexedNewBot([
          passage(0, 'obsolete walrus text', { embedding: vec(1, 0, 0, 0) }),
          passage(1, 'more walrus', { embedding: vec(0.9, 0.1, 0, 0) }),
        ]);
        const fresh = await index.replaceFilePassages({
          fileId,
          botId: bot.botId,
          passages: [passage(0, 'current narwhal text', { embedding: vec(0, 1, 0, 0) })],
          model: MODEL,
        });
        expect(await index.getPassages(old)).toEqual([]);
        expect((await index.listFilePassages(fileId, 10)).map((p) => p.id)).toEqual(fresh);
        expect(await index.lexicalSearch('walrus', all(bot.botId), 10)).toEqual([]);
        expect((await index.lexicalSearch('narwhal', all(bot.botId), 10)).map((h) => h.passageId)).toEqual(
          fresh,
        );
        const near = await index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 10);
        expect(near.map((h) => h.passageId)).toEqual(fresh);
      });

      it('replaces with an empty list to clear a file', async () => {
        const { bot, fileId } = await indexedNewBot([passage(0, 'something')]);
        expect(await index.replaceFilePassages({ fileId, botId: bot.botId, passages: [] })).toEqual([]);
        expect(await index.listFilePassages(fileId, 10)).toEqual([]);
      });

      it('keeps the old passages when a write fails part-way (one transaction)', async () => {
        const { bot, fileId, ids } = await indexedNewBot([passage(0, 'original kept')]);
        const many = Array.from({ length: 700 }, (_, i) =>
          passage(i, `new ${i}`, { embedding: vec(1, 0, 0, 0) }),
        );
        // A null content fails in the second insert batch, after the delete and the first batch.
        (many[650] as { content: unknown }).content = null;
        await expect(
          index.replaceFilePassages({ fileId, botId: bot.botId, passages: many, model: MODEL }),
        ).rejects.toThrow();
        expect((await index.listFilePassages(fileId, 1000)).map((p) => p.id)).toEqual(ids);
        expect(await index.lexicalSearch('original', all(bot.botId), 10)).toHaveLength(1);
        expect(await index.lexicalSearch('new', all(bot.botId), 10)).toEqual([]);
        expect((await index.storage({ botId: bot.botId })).passages).toBe(1);
      });

      it('never shows a mix of two versions to readers while files are re-indexed', async () => {
        const bot = await newBot();
        const fileId = await newFile(bot);
        const version = (v: number) =>
          Array.from({ length: 40 }, (_, i) =>
            passage(i, `version${v} part ${i}`, { embedding: vec(1, v, 0, 0) }),
          );
        await index.replaceFilePassages({ fileId, botId: bot.botId, passages: version(0), model: MODEL });
        const reads: Promise<string[]>[] = [];
        const writes: Promise<unknown>[] = [];
        for (let v = 1; v <= 6; v++) {
          writes.push(
            index.replaceFilePassages({ fileId, botId: bot.botId, passages: version(v), model: MODEL }),
          );
          reads.push(
            index
              .listFilePassages(fileId, 100)
              .then((ps) => ps.map((p) => p.content.split(' ')[0] as string)),
          );
        }
        await Promise.all(writes);
        for (const seen of await Promise.all(reads)) {
          expect(seen).toHaveLength(40);
          expect(new Set(seen).size).toBe(1);
        }
        expect(await index.listFilePassages(fileId, 100)).toHaveLength(40);
      });

      it('refuses passages of another bot’s file, or of a missing file', async () => {
        const bot = await newBot();
        const other = await newBot();
        const fileId = await newFile(bot);
        await expect(
          index.replaceFilePassages({ fileId, botId: other.botId, passages: [passage(0, 'x')] }),
        ).rejects.toThrow(/not a file of bot/);
        await expect(
          index.replaceFilePassages({
            fileId: 'file_missing',
            botId: bot.botId,
            passages: [passage(0, 'x')],
          }),
        ).rejects.toThrow(/does not exist/);
      });

      it('refuses vectors of the wrong width, vectors without a model, and repeated positions', async () => {
        const bot = await newBot();
        const fileId = await newFile(bot);
        const write = (passages: IndexedPassage[], withModel = true) =>
          index.replaceFilePassages({
            fileId,
            botId: bot.botId,
            passages,
            model: withModel ? MODEL : undefined,
          });
        await expect(write([passage(0, 'x', { embedding: vec(1, 0, 0) })])).rejects.toThrow(/dimensions/);
        await expect(write([passage(0, 'x', { embedding: vec(1, 0, 0, 0) })], false)).rejects.toThrow(
          /model/,
        );
        await expect(write([passage(0, 'x', { embedding: vec(1, Number.NaN, 0, 0) })])).rejects.toThrow(
          /finite/,
        );
        await expect(write([passage(0, 'x'), passage(0, 'y')])).rejects.toThrow(/position/);
      });

      it('refuses vectors of another model than the index’s', async () => {
        const bot = await newBot();
        const fileId = await newFile(bot);
        await expect(
          index.replaceFilePassages({
            fileId,
            botId: bot.botId,
            passages: [passage(0, 'x', { embedding: vec(1, 0, 0, 0) })],
            model: { id: 'another-model', dimensions: 4 },
          }),
        ).rejects.toBeInstanceOf(EmbeddingModelMismatchError);
      });
    });

    describe('deleting', () => {
      it('deleteFile removes a file’s passages and vectors at once', async () => {
        const { bot, fileId, ids } = await indexedNewBot([
          passage(0, 'ephemeral platypus', { embedding: vec(0, 0, 1, 0) }),
        ]);
        await index.deleteFile(fileId);
        expect(await index.getPassages(ids)).toEqual([]);
        expect(await index.lexicalSearch('platypus', all(bot.botId), 10)).toEqual([]);
        expect(await index.vectorSearch(vec(0, 0, 1, 0), all(bot.botId), 10)).toEqual([]);
        expect(await index.storage({ botId: bot.botId })).toMatchObject({ passages: 0, vectors: 0 });
      });

      it('deleting the file row removes its passages and vectors by cascade', async () => {
        const { bot, fileId, ids } = await indexedNewBot([
          passage(0, 'cascading axolotl', { embedding: vec(0, 0, 0, 1) }),
        ]);
        const kept = await indexed(bot, [passage(0, 'staying axolotl', { embedding: vec(0, 0, 0.9, 0.1) })]);
        await db.kysely.deleteFrom('files').where('id', '=', fileId).execute();
        expect(await index.getPassages(ids)).toEqual([]);
        expect(fileIdsOf(await index.lexicalSearch('axolotl', all(bot.botId), 10))).toEqual([kept.fileId]);
        expect(fileIdsOf(await index.vectorSearch(vec(0, 0, 0, 1), all(bot.botId), 10))).toEqual([
          kept.fileId,
        ]);
        expect(await index.storage({ botId: bot.botId })).toMatchObject({ passages: 1, vectors: 1 });
        if (db.dialect === 'sqlite') {
          const left = await sql<{
            n: number;
          }>`select count(*) as n from passage_vectors where bot_id = ${bot.botId}`.execute(db.kysely);
          expect(left.rows[0]?.n).toBe(1);
        }
      });
    });

    describe('lexical search', () => {
      it('finds a passage by another form of a word (stemming)', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'The runners were running quickly.'),
          passage(1, 'Unrelated.'),
        ]);
        const hits = await index.lexicalSearch('run', all(bot.botId), 10);
        expect(hits.map((h) => h.passageId)).toEqual([ids[0]]);
        expect((await index.lexicalSearch('RUNS', all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
          ids[0],
        ]);
      });

      it('ignores diacritics both ways', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'Meet me at the Café Müller.'),
          passage(1, 'A naive resume.'),
        ]);
        expect(
          (await index.lexicalSearch('cafe muller', all(bot.botId), 10)).map((h) => h.passageId),
        ).toEqual([ids[0]]);
        expect(
          (await index.lexicalSearch('naïve résumé', all(bot.botId), 10)).map((h) => h.passageId),
        ).toEqual([ids[1]]);
      });

      it('ORs the words of a question: a passage with only some of them is found', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'Our refund policy allows returns within thirty days.'),
          passage(1, 'Shipping takes five days.'),
          passage(2, 'Nothing to see here.'),
        ]);
        const hits = await index.lexicalSearch(
          'How many days do I have to ask for a refund?',
          all(bot.botId),
          10,
        );
        expect(hits.map((h) => h.passageId)).toEqual([ids[0], ids[1]]);
      });

      it('ranks passages with more and rarer query words higher, scores descending', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'apple apple apple banana'),
          passage(1, 'apple banana cherry durian'),
          passage(2, 'banana only here'),
          passage(3, 'banana split'),
        ]);
        const hits = await index.lexicalSearch('apple durian', all(bot.botId), 10);
        expect(hits[0]?.passageId).toBe(ids[1]);
        expect(new Set(hits.map((h) => h.passageId))).toEqual(new Set([ids[0], ids[1]]));
        for (const h of hits) expect(h.score).toBeGreaterThan(0);
        for (let i = 1; i < hits.length; i++)
          expect((hits[i - 1] as { score: number }).score).toBeGreaterThanOrEqual(
            (hits[i] as { score: number }).score,
          );
      });

      it('finds words of the breadcrumb too', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'Press the red button.', { breadcrumb: ['Emergency shutdown'] }),
        ]);
        expect((await index.lexicalSearch('shutdown', all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
          ids[0],
        ]);
      });

      it('answers at most limit hits', async () => {
        const bot = await newBot();
        await indexed(
          bot,
          Array.from({ length: 8 }, (_, i) => passage(i, `lemur number ${i}`)),
        );
        expect(await index.lexicalSearch('lemur', all(bot.botId), 3)).toHaveLength(3);
        expect(await index.lexicalSearch('lemur', all(bot.botId), 0)).toEqual([]);
      });

      it('never throws on hostile or odd query strings', async () => {
        const bot = await newBot();
        await indexed(bot, [passage(0, 'NEAR AND OR NOT title: "quoted" star* caret^ 東京 😀 col:x')]);
        const hostile = [
          '"',
          '""',
          '"unbalanced',
          "it's",
          'NEAR(a b, 3)',
          'NEAR/2',
          'a AND OR NOT b',
          'AND',
          'OR OR OR',
          'NOT',
          'title:foo',
          'content:near',
          '{content breadcrumb}: x',
          'star*',
          '*',
          '^caret',
          '((((',
          ')',
          '-minus +plus',
          "'; drop table passages; --",
          '\u0000nul\u0000',
          '\\',
          '😀😀 emoji',
          '東京',
          'Ünïcödé',
          'a:b:c',
          '!@#$%^&*()_+=-[]{}|;:,.<>/?`~',
          ' ',
          '',
          `${'x'.repeat(2000)}`,
          Array.from({ length: 300 }, (_, i) => `w${i}`).join(' '),
          '& | ! <-> :*',
          '\'quoted\' "double"',
        ];
        for (const q of hostile) {
          const hits = await index.lexicalSearch(q, all(bot.botId), 5);
          expect(Array.isArray(hits), q).toBe(true);
        }
        expect(await index.lexicalSearch('NEAR', all(bot.botId), 5)).toHaveLength(1);
        expect(await index.lexicalSearch('star*', all(bot.botId), 5)).toHaveLength(1);
        expect(await index.lexicalSearch('東京', all(bot.botId), 5)).toHaveLength(1);
      });

      it('finds nothing for a query with no words', async () => {
        const bot = await newBot();
        await indexed(bot, [passage(0, 'text')]);
        expect(await index.lexicalSearch('?!', all(bot.botId), 5)).toEqual([]);
      });
    });

    // More matches than a search ranks before it applies the scope (SQLite: 400 or 5 × the limit).
    describe('lexical search among many matches', () => {
      const MANY = 500;
      /** `count` passages of one file that match "heron" better than any longer text does. */
      const herons = (count: number, word = 'heron') =>
        Array.from({ length: count }, (_, i) => passage(i, `${word} ${word} ${word} number ${i}`));

      it('never answers another bot’s passages, however many better ones it has', async () => {
        const mine = await newBot();
        const theirs = await newBot();
        await indexed(theirs, herons(MANY));
        const a = await indexed(mine, [
          passage(0, 'A grey heron stood in the shallow water of the lake for an hour.'),
          passage(1, 'Later the heron flew off over the reeds and the boats of the harbour.'),
        ]);
        const hits = await index.lexicalSearch('heron', all(mine.botId), 10);
        expect(hits.map((h) => h.passageId).sort()).toEqual([...a.ids].sort());
        expect(await index.lexicalSearch('heron', all(mine.botId, { fileIds: [] }), 10)).toEqual([]);
        // Naming another bot's file finds nothing either.
        const other = await indexed(theirs, [passage(0, 'heron')]);
        expect(await index.lexicalSearch('heron', all(mine.botId, { fileIds: [other.fileId] }), 10)).toEqual(
          [],
        );
        // Words only the other bot holds find nothing.
        expect(await index.lexicalSearch('number', all(mine.botId), 10)).toEqual([]);
      });

      it('a narrow scope (a few files, a tag) still answers all its matches up to the limit, best first', async () => {
        const bot = await newBot();
        await indexed(bot, herons(MANY), { tags: { kind: 'noise' } });
        const wanted = await indexed(
          bot,
          [
            passage(0, 'A grey heron stood in the shallow water of the lake for an hour or more.'),
            passage(1, 'The heron flew away across the wide grey lake towards the woods at dusk.'),
            passage(2, 'Nothing about birds here.'),
            passage(3, 'Late in the evening a heron came back to the same spot by the water.'),
          ],
          { tags: { kind: 'wanted' } },
        );
        const expected = [wanted.ids[0], wanted.ids[1], wanted.ids[3]].sort();
        const scopes = [
          all(bot.botId, { fileIds: [wanted.fileId] }),
          all(bot.botId, { tags: { kind: { anyOf: ['wanted'] } } }),
          all(bot.botId, { tags: { kind: { noneOf: ['noise'] } } }),
        ];
        for (const scope of scopes) {
          const hits = await index.lexicalSearch('heron', scope, 10);
          expect(hits.map((h) => h.passageId).sort(), JSON.stringify(scope)).toEqual(expected);
          for (let i = 1; i < hits.length; i++)
            expect((hits[i - 1] as { score: number }).score).toBeGreaterThanOrEqual(
              (hits[i] as { score: number }).score,
            );
          const top2 = await index.lexicalSearch('heron', scope, 2);
          expect(top2.map((h) => h.passageId)).toEqual(hits.slice(0, 2).map((h) => h.passageId));
        }
        // Unscoped, the many better matches fill the limit.
        const unscoped = await index.lexicalSearch('heron', all(bot.botId), 10);
        expect(unscoped).toHaveLength(10);
        expect(unscoped.filter((h) => h.fileId === wanted.fileId)).toEqual([]);
      });

      it('orders equal scores by passage id, even among more ties than it keeps', async () => {
        const bot = await newBot();
        // 56 full tiles of 8 passages of one text: every passage and every tile scores the same.
        const { ids } = await indexed(
          bot,
          Array.from({ length: 448 }, (_, i) => passage(i, 'otter pup')),
        );
        const sorted = [...ids].sort();
        const hits = await index.lexicalSearch('otter', all(bot.botId), 5);
        expect(hits.map((h) => h.passageId)).toEqual(sorted.slice(0, 5));
        expect(new Set(hits.map((h) => h.score)).size).toBe(1);
        const few = await indexed(bot, [passage(0, 'badger sett'), passage(1, 'badger sett')]);
        expect(
          (await index.lexicalSearch('badger', all(bot.botId, { fileIds: [few.fileId] }), 5)).map(
            (h) => h.passageId,
          ),
        ).toEqual([...few.ids].sort());
      });

      it('answers nothing when no passage in scope holds a query word', async () => {
        const bot = await newBot();
        await indexed(bot, herons(MANY), { tags: { kind: 'noise' } });
        const quiet = await indexed(bot, [passage(0, 'A quiet pond.')], { tags: { kind: 'quiet' } });
        expect(await index.lexicalSearch('kingfisher', all(bot.botId), 10)).toEqual([]);
        expect(await index.lexicalSearch('heron', all(bot.botId, { fileIds: [quiet.fileId] }), 10)).toEqual(
          [],
        );
        expect(
          await index.lexicalSearch('heron', all(bot.botId, { tags: { kind: { anyOf: ['quiet'] } } }), 10),
        ).toEqual([]);
      });
    });

    describe('scope', () => {
      it('searches only the bot’s own files', async () => {
        const mine = await newBot();
        const theirs = await newBot();
        const a = await indexed(mine, [passage(0, 'shared secret word', { embedding: vec(1, 0, 0, 0) })]);
        await indexed(theirs, [passage(0, 'shared secret word', { embedding: vec(1, 0, 0, 0) })]);
        expect(fileIdsOf(await index.lexicalSearch('secret', all(mine.botId), 10))).toEqual([a.fileId]);
        expect(fileIdsOf(await index.vectorSearch(vec(1, 0, 0, 0), all(mine.botId), 10))).toEqual([a.fileId]);
      });

      it('searches only files that finished indexing', async () => {
        const bot = await newBot();
        const done = await indexed(bot, [passage(0, 'ocelot', { embedding: vec(1, 0, 0, 0) })]);
        for (const status of ['indexing_pending', 'indexing_failed', 'upload_completed', 'upload_pending'])
          await indexed(bot, [passage(0, 'ocelot', { embedding: vec(1, 0, 0, 0) })], { status });
        expect(fileIdsOf(await index.lexicalSearch('ocelot', all(bot.botId), 10))).toEqual([done.fileId]);
        expect(fileIdsOf(await index.vectorSearch(vec(1, 0, 0, 0), all(bot.botId), 10))).toEqual([
          done.fileId,
        ]);
      });

      it('shows an integration its own files and those shared with integrations, nothing else', async () => {
        const bot = await newBot();
        const integrationId = newId('int');
        const own = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
          ownerType: 'integration',
          ownerId: integrationId,
        });
        const shared = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
          accessPolicies: ['integrations'],
        });
        const hidden = await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })]);
        await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
          ownerType: 'integration',
          ownerId: newId('int'),
        });
        await indexed(bot, [passage(0, 'gazelle', { embedding: vec(1, 0, 0, 0) })], {
          accessPolicies: ['public_content'],
        });
        const scope = all(bot.botId, { visibility: { kind: 'integration', integrationId } });
        const expected = [own.fileId, shared.fileId].sort();
        expect(fileIdsOf(await index.lexicalSearch('gazelle', scope, 10))).toEqual(expected);
        expect(fileIdsOf(await index.vectorSearch(vec(1, 0, 0, 0), scope, 10))).toEqual(expected);
        expect(fileIdsOf(await index.lexicalSearch('gazelle', all(bot.botId), 10))).toContain(hidden.fileId);
        expect(await index.lexicalSearch('gazelle', all(bot.botId), 10)).toHaveLength(5);
      });

      it('filters by tags (any of, none of, exists)', async () => {
        const bot = await newBot();
        const sales = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })], {
          tags: { team: 'sales', lang: 'en' },
        });
        const ops = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })], {
          tags: { team: 'ops' },
        });
        const none = await indexed(bot, [passage(0, 'quokka', { embedding: vec(1, 0, 0, 0) })]);
        const cases: [PassageScope['tags'], string[]][] = [
          [{ team: { anyOf: ['sales'] } }, [sales.fileId]],
          [{ team: { anyOf: ['sales', 'ops'] } }, [sales.fileId, ops.fileId]],
          [{ team: { noneOf: ['sales'] } }, [ops.fileId, none.fileId]],
          [{ team: { exists: false } }, [none.fileId]],
          [{ team: { exists: true }, lang: { anyOf: ['en'] } }, [sales.fileId]],
        ];
        for (const [tags, expected] of cases) {
          const scope = all(bot.botId, { tags });
          expect(fileIdsOf(await index.lexicalSearch('quokka', scope, 10)), JSON.stringify(tags)).toEqual(
            [...expected].sort(),
          );
          expect(
            fileIdsOf(await index.vectorSearch(vec(1, 0, 0, 0), scope, 10)),
            JSON.stringify(tags),
          ).toEqual([...expected].sort());
        }
      });

      it('restricts to the given file ids; an empty list matches nothing', async () => {
        const bot = await newBot();
        const a = await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
        const b = await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
        await indexed(bot, [passage(0, 'wombat', { embedding: vec(1, 0, 0, 0) })]);
        const scope = all(bot.botId, { fileIds: [a.fileId, b.fileId] });
        expect(fileIdsOf(await index.lexicalSearch('wombat', scope, 10))).toEqual(
          [a.fileId, b.fileId].sort(),
        );
        expect(fileIdsOf(await index.vectorSearch(vec(1, 0, 0, 0), scope, 10))).toEqual(
          [a.fileId, b.fileId].sort(),
        );
        const empty = all(bot.botId, { fileIds: [] });
        expect(await index.lexicalSearch('wombat', empty, 10)).toEqual([]);
        expect(await index.vectorSearch(vec(1, 0, 0, 0), empty, 10)).toEqual([]);
      });

      it('a file whose access changes leaves or enters results at once', async () => {
        const bot = await newBot();
        const integrationId = newId('int');
        const f = await indexed(bot, [passage(0, 'tapir', { embedding: vec(1, 0, 0, 0) })], {
          accessPolicies: ['integrations'],
        });
        const scope = all(bot.botId, { visibility: { kind: 'integration', integrationId } });
        expect(await index.lexicalSearch('tapir', scope, 10)).toHaveLength(1);
        await db.kysely
          .updateTable('files')
          .set({ access_policies: '[]' })
          .where('id', '=', f.fileId)
          .execute();
        expect(await index.lexicalSearch('tapir', scope, 10)).toEqual([]);
        expect(await index.vectorSearch(vec(1, 0, 0, 0), scope, 10)).toEqual([]);
      });
    });

    describe('vector search', () => {
      it('answers the nearest passages by cosine similarity, best first, with the similarity as score', async () => {
        const { bot, ids } = await indexedNewBot([
          passage(0, 'east', { embedding: vec(1, 0, 0, 0) }),
          passage(1, 'north-east', { embedding: vec(1, 1, 0, 0) }),
          passage(2, 'north', { embedding: vec(0, 5, 0, 0) }),
          passage(3, 'west', { embedding: vec(-1, 0, 0, 0) }),
          passage(4, 'no vector'),
        ]);
        const hits = await index.vectorSearch(vec(2, 0.2, 0, 0), all(bot.botId), 10);
        expect(hits.map((h) => h.passageId)).toEqual([ids[0], ids[1], ids[2], ids[3]]);
        const cos = (a: number[], b: number[]) => {
          const dot = a.reduce((s, x, i) => s + x * (b[i] as number), 0);
          return dot / Math.hypot(...a) / Math.hypot(...b);
        };
        expect(hits[0]?.score).toBeCloseTo(cos([2, 0.2, 0, 0], [1, 0, 0, 0]), 5);
        expect(hits[1]?.score).toBeCloseTo(cos([2, 0.2, 0, 0], [1, 1, 0, 0]), 5);
        expect(hits[3]?.score).toBeCloseTo(-cos([2, 0.2, 0, 0], [1, 0, 0, 0]), 5);
        const top2 = await index.vectorSearch(vec(0, 1, 0, 0), all(bot.botId), 2);
        expect(top2.map((h) => h.passageId)).toEqual([ids[2], ids[1]]);
      });

      it('finds the nearest in scope even when many nearer passages are out of scope', async () => {
        const bot = await newBot();
        for (let f = 0; f < 3; f++)
          await indexed(
            bot,
            Array.from({ length: 50 }, (_, i) =>
              passage(i, `near ${i}`, { embedding: vec(1, i / 1000, 0, 0) }),
            ),
            { tags: { kind: 'noise' } },
          );
        const target = await indexed(bot, [passage(0, 'far', { embedding: vec(0, 0, 1, 1) })], {
          tags: { kind: 'wanted' },
        });
        const hits = await index.vectorSearch(
          vec(1, 0, 0, 0),
          all(bot.botId, { tags: { kind: { anyOf: ['wanted'] } } }),
          1,
        );
        expect(hits.map((h) => h.passageId)).toEqual(target.ids);
      });

      it('answers the exact nearest (recall@10 ≥ 0.98 where an ANN index serves it), scoped to the bot, after updates', async () => {
        // 1,500 passages in 15 files around 30 centres, written file by file as indexing does, so an
        // approximate index (SQLite's HNSW graph, pgvector's hnsw) is built and updated as it goes.
        let seed = 7;
        const rnd = () => {
          seed = (seed * 16807) % 2147483647;
          return seed / 2147483647 - 0.5;
        };
        const centres = Array.from({ length: 30 }, () => [rnd(), rnd(), rnd(), rnd()]);
        const vectors = Array.from({ length: 1500 }, (_, i) =>
          vec(...(centres[i % 30] as number[]).map((x) => x + rnd() * 0.3)),
        );
        const bot = await newBot();
        const files: { fileId: string; ids: string[] }[] = [];
        for (let f = 0; f < 15; f++)
          files.push(
            await indexed(
              bot,
              vectors.slice(f * 100, f * 100 + 100).map((v, i) => passage(i, `v${f}.${i}`, { embedding: v })),
            ),
          );
        // Another bot's identical vectors are never answered.
        const other = await newBot();
        await indexed(
          other,
          vectors.slice(0, 100).map((v, i) => passage(i, `o${i}`, { embedding: v })),
        );
        // One file re-indexed with other vectors, one deleted: the index follows.
        const moved = vectors.slice(0, 100).map((v) => vec(...Array.from(v, (x) => -x)));
        await index.replaceFilePassages({
          fileId: files[0]?.fileId as string,
          botId: bot.botId,
          passages: moved.map((v, i) => passage(i, `m${i}`, { embedding: v })),
          model: MODEL,
        });
        await index.deleteFile(files[1]?.fileId as string);
        const live = [...moved, ...vectors.slice(200)];
        const cos = (a: Float32Array, b: Float32Array) => {
          let dot = 0;
          for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number);
          return dot / Math.hypot(...a) / Math.hypot(...b);
        };
        let found = 0;
        const queries = Array.from({ length: 40 }, (_, i) =>
          vec(...Array.from(live[i * 31] as Float32Array, (x) => x + rnd() * 0.2)),
        );
        const allowed = new Set([files[0], ...files.slice(2)].map((f) => f?.fileId as string));
        for (const q of queries) {
          const tenth = live.map((v) => cos(q, v)).sort((a, b) => b - a)[9] as number;
          const hits = await index.vectorSearch(q, all(bot.botId), 10);
          expect(hits).toHaveLength(10);
          for (const h of hits) expect(allowed.has(h.fileId)).toBe(true);
          found += hits.filter((h) => h.score >= tenth - 1e-5).length;
        }
        expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.98);
      });

      it('refuses a query vector of the wrong width', async () => {
        const bot = await newBot();
        await expect(index.vectorSearch(vec(1, 0, 0), all(bot.botId), 5)).rejects.toThrow(/dimensions/);
      });
    });

    describe('reading a file’s passages', () => {
      it('lists a file’s passages page by page after a position', async () => {
        const bot = await newBot();
        const { fileId, ids } = await indexed(
          bot,
          Array.from({ length: 7 }, (_, i) => passage(i, `p${i}`)),
        );
        const page1 = await index.listFilePassages(fileId, 3);
        expect(page1.map((p) => p.id)).toEqual(ids.slice(0, 3));
        const page2 = await index.listFilePassages(fileId, 3, page1[2]?.position);
        expect(page2.map((p) => p.id)).toEqual(ids.slice(3, 6));
        const page3 = await index.listFilePassages(fileId, 3, page2[2]?.position);
        expect(page3.map((p) => p.id)).toEqual(ids.slice(6));
        expect(await index.listFilePassages(fileId, 3, 6)).toEqual([]);
      });

      it('answers the neighbours of a passage within a depth, itself included, clipped at the ends', async () => {
        const bot = await newBot();
        const { fileId } = await indexed(
          bot,
          Array.from({ length: 6 }, (_, i) => passage(i, `n${i}`)),
        );
        expect((await index.neighbours(fileId, 2, 1)).map((p) => p.content)).toEqual(['n1', 'n2', 'n3']);
        expect((await index.neighbours(fileId, 0, 2)).map((p) => p.content)).toEqual(['n0', 'n1', 'n2']);
        expect((await index.neighbours(fileId, 5, 10)).map((p) => p.position)).toEqual([0, 1, 2, 3, 4, 5]);
        expect((await index.neighbours(fileId, 3, 0)).map((p) => p.content)).toEqual(['n3']);
      });
    });

    describe('storage', () => {
      it('counts passages, vectors and their bytes per bot and per workspace', async () => {
        const bot = await newBot();
        const botB = await newBot();
        await indexed(bot, [
          passage(0, 'abc', { embedding: vec(1, 0, 0, 0) }),
          passage(1, 'é', { embedding: vec(0, 1, 0, 0) }),
          passage(2, 'no vector'),
        ]);
        await indexed(botB, [passage(0, 'xyz', { embedding: vec(1, 0, 0, 0) })]);
        expect(await index.storage({ botId: bot.botId })).toEqual({
          passages: 3,
          vectors: 2,
          vectorBytes: 2 * MODEL.dimensions * 4,
          contentBytes: 3 + 2 + 9,
        });
        expect(await index.storage({ workspaceId: bot.workspaceId })).toEqual(
          await index.storage({ botId: bot.botId }),
        );
        expect(await index.storage({ botId: newBotId() })).toEqual({
          passages: 0,
          vectors: 0,
          vectorBytes: 0,
          contentBytes: 0,
        });
      });
    });

    describe('files without vectors', () => {
      it('lists the files done indexing that have passages without a vector, by id, a page after another', async () => {
        const bot = await newBot();
        const vector = vec(1, 0, 0, 0);
        const mixed = await indexed(bot, [passage(0, 'half', { embedding: vector }), passage(1, 'bare')]);
        const bare = await indexed(bot, [passage(0, 'bare')]);
        const embedded = await indexed(bot, [passage(0, 'whole', { embedding: vector })]);
        const empty = await indexed(bot, []);
        const pending = await indexed(bot, [passage(0, 'bare')], { status: 'indexing_pending' });
        const failed = await indexed(bot, [passage(0, 'bare')], { status: 'indexing_failed' });

        const listed = await index.unembeddedFiles(1000);
        expect(listed).toEqual([...listed].sort());
        expect(listed).toEqual(expect.arrayContaining([mixed.fileId, bare.fileId]));
        for (const f of [embedded, empty, pending, failed]) expect(listed).not.toContain(f.fileId);
        // A page after another: the one after a listed file is the next one listed.
        const at = listed.indexOf(mixed.fileId);
        expect(await index.unembeddedFiles(1, mixed.fileId)).toEqual(listed.slice(at + 1, at + 2));
        expect(await index.unembeddedFiles(1000, listed[listed.length - 1])).toEqual([]);
        expect(await index.unembeddedFiles(0)).toEqual([]);

        // Embedded, or deleted, a file leaves the list.
        await index.replaceFilePassages({
          fileId: mixed.fileId,
          botId: bot.botId,
          passages: [passage(0, 'half', { embedding: vector }), passage(1, 'bare', { embedding: vector })],
          model: MODEL,
        });
        await index.deleteFile(bare.fileId);
        const after = await index.unembeddedFiles(1000);
        expect(after).not.toContain(mixed.fileId);
        expect(after).not.toContain(bare.fileId);
      });
    });

    // Last: a model change drops every vector of the database.
    describe('changing the model', () => {
      it('drops every vector, lists files to re-embed, and takes vectors of the new width', async () => {
        const { bot, fileId } = await indexedNewBot([passage(0, 'jaguar', { embedding: vec(1, 0, 0, 0) })]);
        expect(await index.staleFiles(1000)).not.toContain(fileId);
        const next = { id: 'next-model-3d', dimensions: 3 };
        const changed = await index.setModel(next);
        expect(changed).toEqual({ changed: true, info: { ...next, vectorStore: options.vectorStore } });
        expect(await index.vectorSearch(vec(1, 0, 0), all(bot.botId), 10)).toEqual([]);
        expect(await index.storage({ botId: bot.botId })).toMatchObject({
          passages: 1,
          vectors: 0,
          vectorBytes: 0,
        });
        expect(await index.staleFiles(1000)).toContain(fileId);
        expect(await index.unembeddedFiles(1000)).toContain(fileId);
        expect((await index.lexicalSearch('jaguar', all(bot.botId), 10)).length).toBe(1);
        await expect(
          index.replaceFilePassages({
            fileId,
            botId: bot.botId,
            passages: [passage(0, 'jaguar', { embedding: vec(1, 0, 0, 0) })],
            model: MODEL,
          }),
        ).rejects.toBeInstanceOf(EmbeddingModelMismatchError);
        const [id] = await index.replaceFilePassages({
          fileId,
          botId: bot.botId,
          passages: [passage(0, 'jaguar', { embedding: vec(0, 1, 0) })],
          model: next,
        });
        expect(await index.staleFiles(1000)).not.toContain(fileId);
        expect(await index.unembeddedFiles(1000)).not.toContain(fileId);
        expect((await index.vectorSearch(vec(0, 1, 0), all(bot.botId), 10)).map((h) => h.passageId)).toEqual([
          id,
        ]);
        expect(await index.storage({ botId: bot.botId })).toMatchObject({ vectors: 1, vectorBytes: 12 });
      });
    });
  });
}
