// The shared shapes of the answer-type tables (one file a language: en.ts, fr.ts…) and their helpers. The
// matching itself is answer-type.ts's.

/** A kind of answer a question can expect. */
export type AnswerType = 'duration' | 'number' | 'time' | 'date' | 'price' | 'place' | 'person';

/** What a question expects: its answer types, each with how much a sentence carrying it is preferred (0 to 1). */
export type Expected = ReadonlyArray<{ type: AnswerType; weight: number }>;

/** A question form and the answer types it expects, the first the most. */
export interface QuestionRule {
  /** Matched against the question's text (case ignored). */
  asks: RegExp;
  expects: Expected;
}

export const full = (...types: AnswerType[]): Expected => types.map((type) => ({ type, weight: 1 }));
/** A price, or at least a number. */
export const PRICE: Expected = [
  { type: 'price', weight: 1 },
  { type: 'number', weight: 0.5 },
];

/**
 * Alternatives as whole words, case ignored: `\b` knows ASCII letters only, so the words are bounded by
 * anything but a letter or a digit ("coûte", "días", "Größe" are whole words too).
 */
export const whole = (...alternatives: string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/** What a sentence carrying each answer type holds (any one pattern). */
export type Carriers = Partial<Record<AnswerType, readonly RegExp[]>>;

/** A language's table: its question forms, what its sentences carry, its type words. */
export interface LanguageTable {
  /** The question forms, tried in order: the first that matches decides. */
  rules: readonly QuestionRule[];
  /**
   * What a sentence carrying each answer type holds in the language besides English's carriers (whose digits,
   * symbols and currency codes hold in every language: "34,90 €", "9:00", "2026-03-01").
   */
  carriers: Carriers;
  /**
   * Words of a question that ask for its answer type rather than name its subject ("coûte", "kostet", "plazo",
   * "値段"): a sentence that carries the type answers them (a price answers "what does it cost"), so the
   * extraction counts them as held by it (extract.ts).
   */
  typeWords: Partial<Record<AnswerType, string>>;
}
