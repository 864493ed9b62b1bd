/**
 * The in-memory lexical index of the SQLite passage index (issue 14): the postings of `passages_fts` held in
 * typed arrays, per bot, so that a search scores every matching passage of its bot, and its tile, in a few
 * milliseconds where FTS5 reads each match's row, size and positions (~1 µs a match: 50 ms for a query matching
 * half of 100k passages).
 *
 * Scores equal FTS5's: bm25 with k1 = 1.2 and b = 0.75, each phrase's idf from the rows of the whole table
 * holding it (every bot's, as FTS5's `xQueryPhrase` counts), the document length summed over every column, the
 * weighted frequency summed over columns (`bm25(passages_fts, 1, breadcrumbWeight, 0)`), and a tile's score
 * (`bm25(passage_tiles, 1, 0)`) from the content tokens of its passages, which are the tokens of the tile's
 * text (`group_concat` of their content with newlines). The tokens themselves come from FTS5's own tokenizer
 * (lexical-memory-worker.ts), so they are FTS5's.
 *
 * A passage is a document of its bot's part: dense ids, removed by marking (and the postings compacted once
 * more than half are dead). Only single-token phrases are searched here; a query with a phrase of several
 * tokens (`e-mail`) is FTS5's.
 */

import { B, K1, type MemoryHit, Part, pack, Scratch, topK } from './lexical-memory-parts.js';

export type { MemoryHit } from './lexical-memory-parts.js';

/** What a file holds in the index. */
interface FileEntry {
  botId: string;
  docs: number[];
  tiles: number[];
}

/**
 * A passage of a file: its seq, its position in the file (its tile is position / 8), and its length in tokens:
 * its content, its bot column and all its columns.
 */
export interface PassagePlace {
  seq: number;
  position: number;
  content: number;
  bot: number;
  total: number;
}

/**
 * A term's counts in one passage of a file: the term, the passage (index into the file's passages), and its
 * count in the content, the breadcrumb and the bot column.
 */
export type TermCounts = [term: string, passage: number, content: number, breadcrumb: number, bot: number];

/** Rows and tokens (every column) of `passages_fts` and of `passage_tiles`, as FTS5 counts them. */
export interface TableStats {
  rows: number;
  tokens: number;
  tileRows: number;
  tileTokens: number;
}

/**
 * The row count and total tokens of an FTS5 table from its averages record (`<table>_data` id 1): varints, the
 * rows, then each column's tokens.
 */
export function averagesRecord(block: Uint8Array): { rows: number; tokens: number } {
  let at = 0;
  const varint = (): number => {
    // SQLite's varint: 7 bits a byte, high bit set but in the ninth byte, which gives all 8.
    let v = 0;
    for (let i = 0; i < 9 && at < block.length; i++) {
      const byte = block[at++] as number;
      if (i === 8) return v * 256 + byte;
      v = v * 128 + (byte & 0x7f);
      if (byte < 0x80) return v;
    }
    return v;
  };
  const rows = varint();
  let tokens = 0;
  while (at < block.length) tokens += varint();
  return { rows, tokens };
}

/** One search: single-token phrases (in query order; duplicates count twice, as FTS5 scores each phrase). */
export interface MemorySearch {
  botId: string;
  phrases: string[];
  breadcrumbWeight: number;
  tileWeight: number;
  /** How many passages to answer, best first. */
  k: number;
}

/** Size of a tile in passages (TILE_PASSAGES of common.ts; repeated so the worker imports nothing else). */
const TILE = 8;

/** The in-memory postings of every bot's passages (see the file comment). */
export class LexicalMemoryIndex {
  private readonly parts = new Map<string, Part>();
  private readonly files = new Map<string, FileEntry>();
  private readonly scratch = new Scratch();
  /** Rows and tokens of `passages_fts` and of `passage_tiles`, every bot's. */
  private rows = 0;
  private tokens = 0;
  private tileRows = 0;
  private tileTokens = 0;

  /** Passages held (every bot's). */
  get size(): number {
    return this.rows;
  }

  /** The bot's part, made when it has none. */
  private partOf(botId: string): Part {
    let part = this.parts.get(botId);
    if (!part) {
      part = new Part();
      this.parts.set(botId, part);
    }
    return part;
  }

  /** Replaces a file's passages (none: the file is gone) with their term counts (read once, as they come). */
  replaceFile(fileId: string, botId: string, passages: PassagePlace[], counts: Iterable<TermCounts>): void {
    this.dropFile(fileId);
    if (passages.length === 0) return;
    const part = this.partOf(botId);
    const entry: FileEntry = { botId, docs: [], tiles: [] };
    // Tiles: consecutive positions / 8; a tile's text is its passages' content, its bot column the same bot's.
    const tileOf = new Map<number, number>();
    const tileLength = new Map<number, number>();
    passages.forEach((p) => {
      const group = Math.floor(p.position / TILE);
      tileLength.set(group, (tileLength.get(group) ?? p.bot) + p.content);
    });
    for (const [group, length] of tileLength) {
      const t = part.addTile(length);
      tileOf.set(group, t);
      entry.tiles.push(t);
      this.tileRows++;
      this.tileTokens += length;
    }
    const docs = passages.map((p) => {
      const d = part.addDoc(p.seq, p.total, tileOf.get(Math.floor(p.position / TILE)) as number);
      entry.docs.push(d);
      this.rows++;
      this.tokens += p.total;
      return d;
    });
    for (const [term, i, c, b, t] of counts) part.post(term, docs[i] as number, pack(c, b, t));
    this.files.set(fileId, entry);
  }

  /** Forgets everything (a failed bulk read). */
  clear(): void {
    this.parts.clear();
    this.files.clear();
    this.bulkState = undefined;
    this.rows = 0;
    this.tokens = 0;
    this.tileRows = 0;
    this.tileTokens = 0;
  }

  /** A bulk read in progress: each passage's part and id by seq, and its bot column's length. */
  private bulkState: { docOf: Int32Array; partOf: Part[]; botLen: Uint8Array } | undefined;

  /**
   * Starts reading a whole database into an empty index: {@link bulkFile} for every file, then
   * {@link bulkCount} for every term count, then {@link bulkFinish}. Faster than a file at a time: the counts
   * come from FTS5's own index in one scan.
   */
  bulkStart(maxSeq: number): void {
    this.bulkState = {
      docOf: new Int32Array(maxSeq + 1).fill(-1),
      partOf: new Array<Part>(maxSeq + 1),
      botLen: new Uint8Array(maxSeq + 1),
    };
  }

  /** A file's passages, in position order (lengths come with the counts). */
  bulkFile(fileId: string, botId: string, passages: { seq: number; position: number }[]): void {
    const bulk = this.bulkState;
    if (!bulk) throw new Error('bulkFile outside a bulk read');
    const part = this.partOf(botId);
    const entry: FileEntry = { botId, docs: [], tiles: [] };
    const tileOf = new Map<number, number>();
    for (const p of passages) {
      const group = Math.floor(p.position / TILE);
      let t = tileOf.get(group);
      if (t === undefined) {
        t = part.addTile(0);
        tileOf.set(group, t);
        entry.tiles.push(t);
      }
      const d = part.addDoc(p.seq, 0, t);
      entry.docs.push(d);
      bulk.docOf[p.seq] = d;
      bulk.partOf[p.seq] = part;
    }
    this.files.set(fileId, entry);
  }

  /** One term's counts in one passage (by seq), as FTS5's index holds them. */
  bulkCount(seq: number, term: string, content: number, breadcrumb: number, bot: number): void {
    const bulk = this.bulkState;
    const d = bulk?.docOf[seq] ?? -1;
    const part = bulk?.partOf[seq];
    if (!bulk || d < 0 || !part) return;
    part.post(term, d, pack(content, breadcrumb, bot));
    part.len[d] = (part.len[d] as number) + content + breadcrumb + bot;
    const t = part.tile[d] as number;
    part.tileLen[t] = (part.tileLen[t] as number) + content;
    bulk.botLen[seq] = Math.min(255, (bulk.botLen[seq] as number) + bot);
  }

  /** Ends a bulk read: each tile's bot column, the totals, the arrays trimmed. */
  bulkFinish(): void {
    const bulk = this.bulkState;
    if (!bulk) return;
    this.bulkState = undefined;
    this.rows = 0;
    this.tokens = 0;
    this.tileRows = 0;
    this.tileTokens = 0;
    for (const entry of this.files.values()) {
      const part = this.parts.get(entry.botId);
      if (!part) continue;
      const counted = new Set<number>();
      for (const d of entry.docs) {
        this.rows++;
        this.tokens += part.len[d] as number;
        const t = part.tile[d] as number;
        if (counted.has(t)) continue;
        counted.add(t);
        part.tileLen[t] = (part.tileLen[t] as number) + (bulk.botLen[part.seq[d] as number] as number);
        this.tileRows++;
        this.tileTokens += part.tileLen[t] as number;
      }
    }
    this.trim();
  }

  /** Gives every bot's postings back their unused room (after a bulk read: growth leaves up to a third free). */
  trim(): void {
    for (const part of this.parts.values()) part.trim();
  }

  /** Removes a file's passages and tiles. */
  dropFile(fileId: string): void {
    const entry = this.files.get(fileId);
    if (!entry) return;
    this.files.delete(fileId);
    const part = this.parts.get(entry.botId);
    if (!part) return;
    for (const d of entry.docs) {
      part.alive[d] = 0;
      part.dead++;
      this.rows--;
      this.tokens -= part.len[d] as number;
    }
    for (const t of entry.tiles) {
      part.tileAlive[t] = 0;
      part.deadTiles++;
      this.tileRows--;
      this.tileTokens -= part.tileLen[t] as number;
    }
    if (part.dead === part.count) {
      this.parts.delete(entry.botId);
      return;
    }
    if (part.dead > 1024 && part.dead * 2 > part.count) {
      // Ids change: the bot's files are told their new ones.
      const { docMap, tileMap } = part.compact();
      for (const other of this.files.values()) {
        if (other.botId !== entry.botId) continue;
        other.docs = other.docs.map((d) => docMap[d] as number);
        other.tiles = other.tiles.map((t) => tileMap[t] as number);
      }
    }
  }

  /**
   * The best `k` passages of the bot for the phrases, FTS5's scores (see the file comment). `stats`: the row and
   * token counts FTS5 itself holds, when known; FTS5 does not lower those of a contentless table (the tiles)
   * when a row is deleted, so its averages and idf count every tile ever written, and so must ours.
   */
  search(q: MemorySearch, stats?: TableStats): MemoryHit[] {
    const part = this.parts.get(q.botId);
    if (!part || this.rows === 0) return [];
    const s = this.scratch;
    s.fit(part.count, part.tiles);
    const rows = stats?.rows ?? this.rows;
    const tileRows = stats?.tileRows ?? this.tileRows;
    const avgdl = (stats?.tokens ?? this.tokens) / rows;
    const tileAvgdl = tileRows > 0 ? (stats?.tileTokens ?? this.tileTokens) / tileRows : 1;
    let touched = 0;
    let touchedTiles = 0;
    for (const phrase of q.phrases) {
      const own = part.terms.get(phrase);
      if (!own) continue;
      // idf: every bot's rows holding the phrase, and every bot's tiles holding it in their text (each counted
      // once: a stamp per tile and phrase).
      let hits = 0;
      let tileHits = 0;
      for (const other of this.parts.values()) {
        const p = other.terms.get(phrase);
        if (!p) continue;
        const stamp = other.nextStamp();
        for (let i = 0; i < p.n; i++) {
          const d = p.docs[i] as number;
          if (!other.alive[d]) continue;
          hits++;
          if (((p.counts[i] as number) & 0xffff) === 0) continue;
          const t = other.tile[d] as number;
          if (other.tileStamp[t] !== stamp) {
            other.tileStamp[t] = stamp;
            tileHits++;
          }
        }
      }
      let idf = Math.log((rows - hits + 0.5) / (hits + 0.5));
      if (idf <= 0) idf = 1e-6;
      let tileIdf = Math.log((tileRows - tileHits + 0.5) / (tileHits + 0.5));
      if (tileIdf <= 0) tileIdf = 1e-6;
      let phraseTiles = 0;
      for (let i = 0; i < own.n; i++) {
        const d = own.docs[i] as number;
        if (!part.alive[d]) continue;
        const c = own.counts[i] as number;
        const content = c & 0xffff;
        const f = content + q.breadcrumbWeight * ((c >>> 16) & 0xff);
        if (!s.mark[d]) {
          s.mark[d] = 1;
          s.touched[touched++] = d;
        }
        s.score[d] =
          (s.score[d] as number) +
          idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * (part.len[d] as number)) / avgdl)));
        if (content > 0) {
          const t = part.tile[d] as number;
          if (s.tileFreq[t] === 0) s.phraseTiles[phraseTiles++] = t;
          s.tileFreq[t] = (s.tileFreq[t] as number) + content;
        }
      }
      // This phrase's term of each tile's bm25; the tile's frequency cleared for the next phrase.
      for (let i = 0; i < phraseTiles; i++) {
        const t = s.phraseTiles[i] as number;
        const f = s.tileFreq[t] as number;
        s.tileFreq[t] = 0;
        s.tileScore[t] =
          (s.tileScore[t] as number) +
          tileIdf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * (part.tileLen[t] as number)) / tileAvgdl)));
        if (!s.tileMark[t]) {
          s.tileMark[t] = 1;
          s.touchedTiles[touchedTiles++] = t;
        }
      }
    }
    const hits = topK(part, s, touched, q.tileWeight, q.k);
    for (let i = 0; i < touched; i++) {
      const d = s.touched[i] as number;
      s.score[d] = 0;
      s.mark[d] = 0;
    }
    for (let i = 0; i < touchedTiles; i++) {
      const t = s.touchedTiles[i] as number;
      s.tileScore[t] = 0;
      s.tileMark[t] = 0;
    }
    return hits;
  }
}
