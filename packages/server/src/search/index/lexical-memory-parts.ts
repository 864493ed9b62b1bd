/**
 * The arrays of the in-memory lexical index (lexical-memory.ts): a bot's part (its passages, tiles and
 * postings), the scratch arrays of one search, and the selection of the best passages.
 */

/** FTS5's bm25 constants. */
export const K1 = 1.2;
export const B = 0.75;

/** A scored passage. */
export interface MemoryHit {
  seq: number;
  score: number;
}

/** Growable postings of one term in one bot's part: document ids and packed counts. */
interface Postings {
  docs: Int32Array;
  /** content count (low 16 bits), breadcrumb (next 8), bot column (top 8); counts above the field's range are clamped. */
  counts: Uint32Array;
  n: number;
}

export const pack = (c: number, b: number, t: number) =>
  Math.min(c, 0xffff) | (Math.min(b, 0xff) << 16) | (Math.min(t, 0xff) << 24);

/** Growable typed array helpers. */
function grown<T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, Math.ceil(a.length * 1.5) + 4));
  next.set(a);
  return next;
}

/** A bot's passages (and their tiles). */
export class Part {
  /** Per passage: seq, total length, alive, tile id. */
  seq = new Float64Array(16);
  len = new Uint32Array(16);
  alive = new Uint8Array(16);
  tile = new Int32Array(16);
  count = 0;
  dead = 0;
  /** Per tile: total length (content of its passages + bot column), alive. */
  tileLen = new Uint32Array(4);
  tileAlive = new Uint8Array(4);
  tiles = 0;
  deadTiles = 0;
  terms = new Map<string, Postings>();

  addDoc(seq: number, len: number, tile: number): number {
    const d = this.count++;
    this.seq = grown(this.seq, this.count);
    this.len = grown(this.len, this.count);
    this.alive = grown(this.alive, this.count);
    this.tile = grown(this.tile, this.count);
    this.seq[d] = seq;
    this.len[d] = len;
    this.alive[d] = 1;
    this.tile[d] = tile;
    return d;
  }

  /** Per tile: the stamp of the last phrase that counted it (idf). */
  tileStamp = new Uint32Array(4);
  private stamp = 0;

  /** A new stamp, the stamps cleared when they wrap. */
  nextStamp(): number {
    this.stamp = (this.stamp + 1) >>> 0;
    if (this.stamp === 0) {
      this.tileStamp.fill(0);
      this.stamp = 1;
    }
    return this.stamp;
  }

  addTile(len: number): number {
    const t = this.tiles++;
    this.tileLen = grown(this.tileLen, this.tiles);
    this.tileAlive = grown(this.tileAlive, this.tiles);
    this.tileStamp = grown(this.tileStamp, this.tiles);
    this.tileLen[t] = len;
    this.tileAlive[t] = 1;
    return t;
  }

  post(term: string, doc: number, counts: number): void {
    let p = this.terms.get(term);
    if (!p) {
      p = { docs: new Int32Array(2), counts: new Uint32Array(2), n: 0 };
      this.terms.set(term, p);
    }
    p.docs = grown(p.docs, p.n + 1);
    p.counts = grown(p.counts, p.n + 1);
    p.docs[p.n] = doc;
    p.counts[p.n] = counts;
    p.n++;
  }

  /** Gives every array back its unused room (after a bulk read). */
  trim(): void {
    for (const p of this.terms.values()) {
      if (p.docs.length === p.n) continue;
      p.docs = p.docs.slice(0, p.n);
      p.counts = p.counts.slice(0, p.n);
    }
  }

  /** Drops dead passages and tiles from every array; answers the new id of each old passage and tile (-1: gone). */
  compact(): { docMap: Int32Array; tileMap: Int32Array } {
    const docMap = new Int32Array(this.count).fill(-1);
    const tileMap = new Int32Array(this.tiles).fill(-1);
    let tiles = 0;
    for (let t = 0; t < this.tiles; t++) {
      if (!this.tileAlive[t]) continue;
      tileMap[t] = tiles;
      this.tileLen[tiles] = this.tileLen[t] as number;
      this.tileAlive[tiles] = 1;
      tiles++;
    }
    let docs = 0;
    for (let d = 0; d < this.count; d++) {
      if (!this.alive[d]) continue;
      docMap[d] = docs;
      this.seq[docs] = this.seq[d] as number;
      this.len[docs] = this.len[d] as number;
      this.alive[docs] = 1;
      this.tile[docs] = tileMap[this.tile[d] as number] as number;
      docs++;
    }
    for (const [term, p] of this.terms) {
      let n = 0;
      for (let i = 0; i < p.n; i++) {
        const d = docMap[p.docs[i] as number] as number;
        if (d < 0) continue;
        p.docs[n] = d;
        p.counts[n] = p.counts[i] as number;
        n++;
      }
      if (n === 0) this.terms.delete(term);
      else {
        p.n = n;
        p.docs = p.docs.slice(0, n);
        p.counts = p.counts.slice(0, n);
      }
    }
    this.alive.fill(0, docs);
    this.tileAlive.fill(0, tiles);
    this.tileStamp.fill(0);
    this.count = docs;
    this.tiles = tiles;
    this.dead = 0;
    this.deadTiles = 0;
    return { docMap, tileMap };
  }
}

/** Scratch arrays of one search, grown as needed and reset after each. */
export class Scratch {
  score = new Float64Array(1024);
  mark = new Uint8Array(1024);
  tileFreq = new Float64Array(1024);
  tileScore = new Float64Array(1024);
  tileMark = new Uint8Array(1024);
  touched = new Int32Array(1024);
  touchedTiles = new Int32Array(1024);
  phraseTiles = new Int32Array(1024);

  fit(docs: number, tiles: number): void {
    if (docs > this.score.length) {
      const n = Math.ceil(docs * 1.25);
      this.score = new Float64Array(n);
      this.mark = new Uint8Array(n);
      this.touched = new Int32Array(n);
    }
    if (tiles > this.tileFreq.length) {
      const n = Math.ceil(tiles * 1.25);
      this.tileFreq = new Float64Array(n);
      this.tileScore = new Float64Array(n);
      this.tileMark = new Uint8Array(n);
      this.touchedTiles = new Int32Array(n);
      this.phraseTiles = new Int32Array(n);
    }
  }
}

/** The `k` best of the touched passages (own score + tile weight × tile score), best first, ties by seq. */
export function topK(part: Part, s: Scratch, touched: number, tileWeight: number, k: number): MemoryHit[] {
  // A min-heap of (score, seq) of at most k.
  const heapScore = new Float64Array(k);
  const heapSeq = new Float64Array(k);
  let size = 0;
  const worse = (a: number, b: number) =>
    (heapScore[a] as number) < (heapScore[b] as number) ||
    (heapScore[a] === heapScore[b] && (heapSeq[a] as number) > (heapSeq[b] as number));
  const swap = (a: number, b: number) => {
    const sc = heapScore[a] as number;
    const sq = heapSeq[a] as number;
    heapScore[a] = heapScore[b] as number;
    heapSeq[a] = heapSeq[b] as number;
    heapScore[b] = sc;
    heapSeq[b] = sq;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && worse(l, m)) m = l;
      if (r < size && worse(r, m)) m = r;
      if (m === i) return;
      swap(i, m);
      i = m;
    }
  };
  for (let i = 0; i < touched; i++) {
    const d = s.touched[i] as number;
    const score = (s.score[d] as number) + tileWeight * (s.tileScore[part.tile[d] as number] as number);
    const seq = part.seq[d] as number;
    if (size < k) {
      heapScore[size] = score;
      heapSeq[size] = seq;
      let j = size++;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if (!worse(j, parent)) break;
        swap(j, parent);
        j = parent;
      }
    } else if (score > (heapScore[0] as number) || (score === heapScore[0] && seq < (heapSeq[0] as number))) {
      heapScore[0] = score;
      heapSeq[0] = seq;
      down(0);
    }
  }
  const out: MemoryHit[] = [];
  for (let i = 0; i < size; i++) out.push({ seq: heapSeq[i] as number, score: heapScore[i] as number });
  return out.sort((a, b) => b.score - a.score || a.seq - b.seq);
}
