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
import { averagesRecord, LexicalMemoryIndex, type TableStats, type TermCounts } from './lexical-memory.js';
import type { MemoryReply, MemoryRequest, MemoryStatusRequest, MemoryStop } from './lexical-memory-client.js';

/** The tokenizer of `passages_fts` and `passage_tiles` (migration 0011). */
const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * Passages read per step (one read transaction, a file at least) while catching up: the worker answers
 * messages between steps, so a search waits at most one step (~0.1 s).
 */
const PASSAGES_PER_STEP = 2000;
/** Changed files listed per step. */
const FILES_PER_STEP = 64;

/**
 * Turns rows of up to three column texts into FTS5's tokens. `load` puts the rows in (numbered from 0) and
 * answers each row's lengths (content, bot column, all); `counts` then yields, per term and row, its count in
 * each column, grouped by SQLite, one at a time (so they die young).
 */
function tokenizer() {
  const tok = new SQLite(':memory:');
  tok.exec(`
    create virtual table t using fts5(c0, c1, c2, content='', tokenize='${FTS_TOKENIZER}');
    create virtual table v using fts5vocab(t, 'instance');`);
  const clear = tok.prepare(`insert into t(t) values ('delete-all')`);
  const insert = tok.prepare('insert into t(rowid, c0, c1, c2) values (?, ?, ?, ?)');
  const lengths = tok
    .prepare(`select doc - 1, sum(col = 'c0'), sum(col = 'c2'), count(*) from v group by doc`)
    .raw();
  const grouped = tok
    .prepare(
      `select term, doc - 1, sum(col = 'c0'), sum(col = 'c1'), sum(col = 'c2') from v group by term, doc`,
    )
    .raw();
  const load = tok.transaction((rows: [string, string, string][]) => {
    clear.run();
    rows.forEach((r, i) => {
      insert.run(i + 1, r[0], r[1], r[2]);
    });
    const out = rows.map(() => ({ content: 0, bot: 0, total: 0 }));
    for (const [i, content, bot, total] of lengths.all() as [number, number, number, number][]) {
      const row = out[i];
      if (row) {
        row.content = content;
        row.bot = bot;
        row.total = total;
      }
    }
    return out;
  });
  return { load, counts: () => grouped.iterate() as IterableIterator<TermCounts> };
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
  // FTS5's own index of the passages, row by row (made before the connection turns read-only; temp only).
  db.exec(`create virtual table temp.passages_instances using fts5vocab(main, 'passages_fts', 'instance')`);
  db.pragma('query_only = 1');
  db.pragma('busy_timeout = 5000');
  const tokens = tokenizer();
  const index = new LexicalMemoryIndex();
  const latest = db.prepare('select max(version) as v from passage_changes').pluck();
  const changes = db
    .prepare('select file_id, version from passage_changes where version > ? order by version limit ?')
    .raw();
  const passagesOf = db.prepare(`
    select seq, position, content || coalesce(char(10) || terms, '') as content, breadcrumb,
      'b' || hex(bot_id) || '0' as bot, bot_id as botId
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
  /** A failure outside any search, told to the main thread (id 0: no request waits for it). */
  const report = (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({ id: 0, ok: false, message } satisfies MemoryReply);
  };
  let seen = 0;
  let caughtUp = false;
  let catching = false;

  /** Reads changed files, a step's worth, in one read transaction; answers whether more are waiting. */
  const step = db.transaction((): boolean => {
    const rows = changes.all(seen, FILES_PER_STEP) as [string, number][];
    let read = 0;
    for (const [fileId, version] of rows) {
      if (read >= PASSAGES_PER_STEP) {
        readStats();
        return true;
      }
      const passages = passagesOf.all(fileId) as PassageRow[];
      read += passages.length;
      const sizes = tokens.load(passages.map((p) => [p.content, p.breadcrumb, p.bot]));
      index.replaceFile(
        fileId,
        passages[0]?.botId ?? '',
        passages.map((p, i) => ({
          seq: p.seq,
          position: p.position,
          ...(sizes[i] ?? { content: 0, bot: 0, total: 0 }),
        })),
        // An iterator left open would keep the tokenizer busy: none when there is nothing to read.
        passages.length === 0 ? [] : tokens.counts(),
      );
      seen = version;
    }
    readStats();
    return rows.length === FILES_PER_STEP;
  });
  const behind = () => ((latest.get() as number | null) ?? 0) > seen;

  /**
   * The first read: every passage at once, its term counts from one scan of FTS5's index (in term order),
   * the worker answering messages every so many rows; then the changes since are read as usual.
   */
  const bulkRead = async () => {
    catching = true;
    db.exec('begin');
    try {
      const version = (latest.get() as number | null) ?? 0;
      index.bulkStart((db.prepare('select max(seq) from passages').pluck().get() as number | null) ?? 0);
      let fileId: string | undefined;
      let botId = '';
      let places: { seq: number; position: number }[] = [];
      const rows = db
        .prepare('select seq, position, file_id, bot_id from passages order by file_id, position')
        .raw()
        .iterate() as IterableIterator<[number, number, string, string]>;
      for (const [seq, position, file, bot] of rows) {
        if (file !== fileId) {
          if (fileId !== undefined) index.bulkFile(fileId, botId, places);
          fileId = file;
          botId = bot;
          places = [];
        }
        places.push({ seq, position });
      }
      if (fileId !== undefined) index.bulkFile(fileId, botId, places);
      const column: Record<string, number> = { content: 0, breadcrumb: 1, bot: 2 };
      let term = '';
      let doc = -1;
      const counts = [0, 0, 0];
      const flush = () => {
        if (doc >= 0)
          index.bulkCount(doc, term, counts[0] as number, counts[1] as number, counts[2] as number);
        counts.fill(0);
      };
      let n = 0;
      const instances = db
        .prepare('select term, doc, col from temp.passages_instances')
        .raw()
        .iterate() as IterableIterator<[string, number, string]>;
      for (const [t, d, col] of instances) {
        if (d !== doc || t !== term) {
          flush();
          term = t;
          doc = d;
        }
        const c = column[col];
        if (c !== undefined) counts[c] = (counts[c] as number) + 1;
        if (++n % 100_000 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      flush();
      index.bulkFinish();
      readStats();
      seen = version;
    } finally {
      db.exec('commit');
      catching = false;
    }
  };

  /** Catches up step by step, answering messages between steps. */
  const catchUp = () => {
    if (catching) return;
    catching = true;
    const next = () => {
      try {
        if (step()) {
          setImmediate(next);
          return;
        }
        if (!caughtUp) index.trim();
        caughtUp = true;
      } catch (error) {
        // The database is busy or failing: said (the caller logs it), tried again in a second; FTS5 answers
        // meanwhile.
        report(error);
        setTimeout(next, 1000).unref();
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
      // A step's worth of changes is read now; more, and FTS5 answers while the rest is read in steps.
      if (step() && behind()) {
        catchUp();
        return { id: r.id, ok: true, miss: 'behind' };
      }
    }
    // Each term's tokens: one is a phrase of one token; more, a phrase FTS5 must match; none, nothing to match.
    const tokensOf: string[][] = r.terms.map(() => []);
    tokens.load(r.terms.map((t) => [t, '', '']));
    for (const [term, i, c] of tokens.counts()) {
      for (let n = 0; n < c; n++) tokensOf[i]?.push(term);
    }
    const phrases: string[] = [];
    for (const tokens of tokensOf) {
      if (tokens.length > 1) return { id: r.id, ok: true, miss: 'phrase' };
      if (tokens[0] !== undefined) phrases.push(tokens[0]);
    }
    const hits = index.search(
      { botId: r.botId, phrases, breadcrumbWeight: r.breadcrumbWeight, tileWeight: r.tileWeight, k: r.k },
      stats,
    );
    return { id: r.id, ok: true, seqs: hits.map((h) => h.seq), scores: hits.map((h) => h.score) };
  };

  port.on('message', (m: MemoryRequest | MemoryStatusRequest | MemoryStop) => {
    if (m.kind === 'stop') {
      try {
        db.close();
      } catch {
        // A scan is open (the first read): the thread's end closes the connection anyway.
      }
      process.exit(m.code);
    }
    let reply: MemoryReply;
    try {
      if (m.kind === 'status') {
        // While catching up the connection may be busy with a scan: no query then.
        const current = caughtUp && !catching && !behind();
        if (!current) catchUp();
        reply = { id: m.id, ok: true, status: { caughtUp: current, passages: index.size } };
      } else reply = search(m);
    } catch (error) {
      reply = { id: m.id, ok: false, message: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
  bulkRead().then(catchUp, (error: unknown) => {
    // FTS5's index could not be read at once: said, and read file by file instead.
    report(error);
    index.clear();
    catchUp();
  });
}

serve((workerData as { file: string }).file);
