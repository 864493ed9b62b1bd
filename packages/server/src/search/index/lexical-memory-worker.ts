/**
 * The worker thread holding the in-memory lexical index (lexical-memory.ts) of one SQLite database file, on a
 * read-only connection of its own. It follows the database through `passage_changes` (migration 0014: a row
 * per file whose passages changed, with a version that grows on every change, written by triggers whatever
 * connection or process writes): at start it reads every file listed there (the migration lists every file
 * that had passages), then, before each search, the files changed since. Each step reads the list and the
 * files' passages in one read transaction, so what it holds is a snapshot of the database. Tokens come from
 * an in-memory FTS5 table with the tokenizer of `passages_fts`, so they are FTS5's own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { averagesRecord, LexicalMemoryIndex, type PassageTokens, type TableStats } from './lexical-memory.js';
import type { MemoryReply, MemoryRequest, MemoryStatusRequest, MemoryStop } from './lexical-memory-client.js';

/** The tokenizer of `passages_fts` and `passage_tiles` (migration 0011). */
const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/** Files read per step (one read transaction) while catching up; the worker answers messages between steps. */
const FILES_PER_STEP = 16;
/** At most this many changed files are read before a search answers; more, and FTS5 answers it meanwhile. */
const CATCH_UP_BEFORE_SEARCH = 32;

/** Turns texts of up to three columns into FTS5's tokens, counted per column. */
function tokenizer() {
  const tok = new SQLite(':memory:');
  tok.exec(`
    create virtual table t using fts5(c0, c1, c2, content='', tokenize='${FTS_TOKENIZER}');
    create virtual table v using fts5vocab(t, 'instance');`);
  const clear = tok.prepare(`insert into t(t) values ('delete-all')`);
  const insert = tok.prepare('insert into t(rowid, c0, c1, c2) values (?, ?, ?, ?)');
  const instances = tok.prepare('select doc, col, term from v').raw();
  const column: Record<string, 0 | 1 | 2> = { c0: 0, c1: 1, c2: 2 };
  return tok.transaction((rows: [string, string, string][]) => {
    clear.run();
    rows.forEach((r, i) => {
      insert.run(i + 1, r[0], r[1], r[2]);
    });
    const out = rows.map(() => ({
      terms: new Map<string, [number, number, number]>(),
      lengths: [0, 0, 0] as [number, number, number],
    }));
    for (const [doc, col, term] of instances.all() as [number, string, string][]) {
      const row = out[doc - 1];
      const c = column[col];
      if (!row || c === undefined) continue;
      row.lengths[c]++;
      let counts = row.terms.get(term);
      if (!counts) {
        counts = [0, 0, 0];
        row.terms.set(term, counts);
      }
      counts[c]++;
    }
    return out;
  });
}

interface PassageRow {
  seq: number;
  position: number;
  content: string;
  breadcrumb: string;
  bot: string;
  botId: string;
}

function serve(file: string): void {
  const port = parentPort;
  if (!port) throw new Error('lexical-memory-worker runs in a worker thread');
  const db = new SQLite(file, { fileMustExist: true });
  db.pragma('query_only = 1');
  db.pragma('busy_timeout = 5000');
  const tokenize = tokenizer();
  const index = new LexicalMemoryIndex();
  const latest = db.prepare('select max(version) as v from passage_changes').pluck();
  const changes = db
    .prepare('select file_id, version from passage_changes where version > ? order by version limit ?')
    .raw();
  const passagesOf = db.prepare(`
    select seq, position, content, breadcrumb, 'b' || hex(bot_id) || '0' as bot, bot_id as botId
    from passages where file_id = ? order by position`);
  const averages = db
    .prepare(
      `select (select block from passages_fts_data where id = 1), (select block from passage_tiles_data where id = 1)`,
    )
    .raw();
  /** FTS5's own counts (see LexicalMemoryIndex.search), read with the files they count. */
  let stats: TableStats | undefined;
  const readStats = () => {
    const [own, tiles] = (averages.get() as [Uint8Array | null, Uint8Array | null] | undefined) ?? [
      null,
      null,
    ];
    if (!own || !tiles) {
      stats = undefined;
      return;
    }
    const a = averagesRecord(own);
    const t = averagesRecord(tiles);
    stats = { rows: a.rows, tokens: a.tokens, tileRows: t.rows, tileTokens: t.tokens };
  };
  let seen = 0;
  let caughtUp = false;
  let catching = false;

  /** Reads up to `files` changed files in one read transaction; answers whether more are waiting. */
  const step = db.transaction((files: number): boolean => {
    const rows = changes.all(seen, files) as [string, number][];
    for (const [fileId, version] of rows) {
      const passages = passagesOf.all(fileId) as PassageRow[];
      const tokens = tokenize(passages.map((p) => [p.content, p.breadcrumb, p.bot]));
      index.replaceFile(
        fileId,
        passages[0]?.botId ?? '',
        passages.map(
          (p, i): PassageTokens => ({
            seq: p.seq,
            position: p.position,
            terms: tokens[i]?.terms ?? new Map(),
            lengths: tokens[i]?.lengths ?? [0, 0, 0],
          }),
        ),
      );
      seen = version;
    }
    readStats();
    return rows.length === files;
  });
  const behind = () => ((latest.get() as number | null) ?? 0) > seen;

  /** Catches up step by step, answering messages between steps. */
  const catchUp = () => {
    if (catching) return;
    catching = true;
    const next = () => {
      try {
        if (step(FILES_PER_STEP)) {
          setImmediate(next);
          return;
        }
        caughtUp = true;
      } catch (error) {
        // The database is busy or changed under us: try again shortly; searches are FTS5's meanwhile.
        void error;
        setTimeout(next, 200).unref();
        return;
      }
      catching = false;
    };
    next();
  };

  const search = (r: MemoryRequest): MemoryReply => {
    if (!caughtUp) return { id: r.id, ok: true, miss: 'building' };
    if (catching) return { id: r.id, ok: true, miss: 'behind' };
    if (behind()) {
      // A few changed files are read now; many, and FTS5 answers while they are read in steps.
      if (step(CATCH_UP_BEFORE_SEARCH) && behind()) {
        catchUp();
        return { id: r.id, ok: true, miss: 'behind' };
      }
    }
    const tokens = tokenize(r.terms.map((t) => [t, '', '']));
    const phrases: string[] = [];
    for (const t of tokens) {
      const terms = [...t.terms.keys()];
      if (t.lengths[0] > 1) return { id: r.id, ok: true, miss: 'phrase' };
      if (terms[0] !== undefined) phrases.push(terms[0]);
    }
    const hits = index.search(
      { botId: r.botId, phrases, breadcrumbWeight: r.breadcrumbWeight, tileWeight: r.tileWeight, k: r.k },
      stats,
    );
    return { id: r.id, ok: true, seqs: hits.map((h) => h.seq), scores: hits.map((h) => h.score) };
  };

  port.on('message', (m: MemoryRequest | MemoryStatusRequest | MemoryStop) => {
    if (m.kind === 'stop') {
      db.close();
      process.exit(m.code);
    }
    let reply: MemoryReply;
    try {
      if (m.kind === 'status') {
        const current = caughtUp && !catching && !behind();
        if (!current) catchUp();
        reply = { id: m.id, ok: true, status: { caughtUp: current, passages: index.size } };
      } else reply = search(m);
    } catch (error) {
      reply = { id: m.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
  catchUp();
}

serve((workerData as { file: string }).file);
