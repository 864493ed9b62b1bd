/**
 * The SentencePiece-style tokenizer of Universal Sentence Encoder lite: NFKC, spaces become `▁`, then the
 * highest-scoring segmentation into vocabulary pieces (Viterbi over a trie), unknown characters merged.
 *
 * A faithful port of the tokenizer in `@tensorflow-models/universal-sentence-encoder` (Apache-2.0), as
 * republished by `@energetic-ai/embeddings`, rewritten to walk the trie in place instead of copying the
 * rest of the input at every position (the reference is quadratic in the input length). The one
 * deliberate difference: the reference steps back over a piece by its UTF-16 length, which goes astray on
 * pieces holding characters outside the BMP; this port steps back by the piece actually chosen.
 */

/** The model reads only this many tokens of an input: later tokens do not change its vector. */
export const USE_LITE_MAX_TOKENS = 128;

/** Longest input considered, in code points: far beyond 128 tokens, and a bound on work for huge texts. */
export const USE_LITE_MAX_INPUT_CHARS = 16_384;

const SEPARATOR = '\u2581';
/** Ids 0–5 are reserved (`<unk>`, `<s>`, `</s>`, extra tokens); 0 is the unknown piece. */
const RESERVED_SYMBOLS = 6;
const UNKNOWN_ID = 0;

/** One vocabulary entry: the piece and its log-probability score. */
export type VocabularyEntry = [piece: string, score: number];

interface TrieNode {
  children: Map<string, TrieNode>;
  /** Vocabulary id of the piece ending here, or -1. */
  id: number;
  score: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 });

/** Turns text into the token ids USE lite was trained on. */
export class UseLiteTokenizer {
  private readonly root = newNode();

  constructor(vocabulary: readonly VocabularyEntry[]) {
    for (let id = RESERVED_SYMBOLS; id < vocabulary.length; id++) {
      const entry = vocabulary[id];
      if (entry === undefined) continue;
      let node = this.root;
      for (const symbol of entry[0]) {
        let child = node.children.get(symbol);
        if (child === undefined) {
          child = newNode();
          node.children.set(symbol, child);
        }
        node = child;
      }
      node.id = id;
      node.score = entry[1];
    }
  }

  /**
   * Token ids of `text`, at most `maxTokens` of them (the model's window by default). Empty text gives [].
   *
   * @example new UseLiteTokenizer(vocabulary).encode('How do I reset my password?')
   */
  encode(text: string, maxTokens = USE_LITE_MAX_TOKENS): number[] {
    // Work on a generous prefix only: 128 tokens never reach that far.
    const normalized = text.slice(0, 4 * USE_LITE_MAX_INPUT_CHARS).normalize('NFKC');
    if (normalized.length === 0) return [];
    const symbols = Array.from(SEPARATOR + normalized.replaceAll(' ', SEPARATOR)).slice(
      0,
      USE_LITE_MAX_INPUT_CHARS,
    );
    const n = symbols.length;
    // best[i]: score of the best segmentation of symbols[0, i); chosen/chosenLength: its last piece.
    const best = new Float64Array(n + 1);
    const chosen = new Int32Array(n + 1);
    // A position no piece ends at counts as one unknown symbol, as in the reference.
    const chosenLength = new Int32Array(n + 1).fill(1);
    const offer = (end: number, length: number, id: number, score: number): void => {
      const total = score + (best[end - length] as number);
      // The reference's rule, kept exactly: 0 means "unset", and ties go to the later candidate.
      if (best[end] === 0 || total >= (best[end] as number)) {
        best[end] = total;
        chosen[end] = id;
        chosenLength[end] = length;
      }
    };
    for (let start = 0; start < n; start++) {
      let node = this.root.children.get(symbols[start] as string);
      let matched = false;
      for (let i = start; node !== undefined && i < n; ) {
        i++;
        if (node.id >= 0) {
          offer(i, i - start, node.id, node.score);
          matched = true;
        }
        if (i < n) node = node.children.get(symbols[i] as string);
      }
      if (!matched) offer(start + 1, 1, UNKNOWN_ID, 0);
    }
    const reversed: number[] = [];
    for (let end = n; end > 0; end -= chosenLength[end] as number) reversed.push(chosen[end] as number);
    const ids: number[] = [];
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i] as number;
      // Runs of unknown pieces collapse into one, as in the reference (which merges from the end).
      if (id === UNKNOWN_ID && ids.length > 0 && ids[ids.length - 1] === UNKNOWN_ID) continue;
      ids.push(id);
    }
    return ids.length > maxTokens ? ids.slice(0, maxTokens) : ids;
  }
}
