import type { ChatMessage, MessagePayload, SearchPassage } from '@parley/protocol';
import { tokenLanguage } from '../../search/language/tokens.js';
import type { Reply } from '../chat/contract.js';
import type { FilesContext } from '../files/service.js';
import { extractQuotes, headingOf, leadingQuote, type Quote } from './extract.js';
import { type RetrievalDeps, type Retrieved, SEARCH_LIMIT } from './retrieval.js';
import { knowledgeScope } from './scope.js';
import type { Selection } from './selection.js';
import { logicalLines, sentencesOf } from './sentences.js';

// "Did you mean…?" (issue #33, item 4). Between an answer the gate is sure of and "nothing here" lies a band
// where the bot asks back: a short question and 2–3 choices named after the best distinct candidates' headings
// (or titles); picking one posts the choice's value, which names the passage to answer from.

/**
 * The lower bar of the band with the shipped USE-lite model: a question whose best quote's evidence (its
 * coverage of the question plus its passage's similarity, the gate's measure, selection.ts MIN_EVIDENCE) falls
 * short of the answer bar but reaches this is asked back. Measured on the tune halves only, of both sets of the
 * answers benchmark in one run (docs/benchmarks/answers.md, "Did you mean"): on the visitor set alone 0.64 looked best (22
 * asked back, 13 offering the right topic, 3 of 21 unanswerable asked), but SQuAD's unanswerable questions share
 * the knowledge's common words and 24 of its 100 were asked back; at 0.8 (with {@link CLARIFY_MIN_SIMILARITY}
 * 0.55) 7 of SQuAD's 100 and none of the visitor set's 21 are, and 4 visitor questions are clarified right.
 */
export const CLARIFY_MIN_EVIDENCE = 0.8;

/**
 * The lower bar by meaning alone (USE-lite cosine similarity of the closest passage that is no heading): a
 * paraphrase sharing no word with the text whose closest passage reaches this, but not the margin of an answer
 * by meaning (relevance.ts: a close passage with another as close), is asked back. On the tune halves, 0.5
 * asked back 1 unanswerable visitor question and 4 more of SQuAD's; 0.55 none of the visitor set's.
 */
export const CLARIFY_MIN_SIMILARITY = 0.55;

/**
 * The lower bar by words alone (no embedder of known scale): the best quote's coverage (the gate's is 0.42). Not
 * measured in English (the benchmark runs with USE-lite): a conservative band. Questions in the other languages
 * read by words alone are never asked back ({@link asksBackByWords}).
 */
export const CLARIFY_MIN_COVERAGE = 0.3;

/**
 * Whether a question read by words alone in `language` (ISO 639-1; undefined: English) may be asked back: not in
 * a language read by its own stems or segmented words (French, German, Spanish, Japanese…, issue #38). Measured on
 * the tune halves of the language sets (docs/benchmarks/answers.md), where every question is read by words alone:
 * the band from {@link CLARIFY_MIN_COVERAGE} to the gate asked back 17 of the 137 questions, clarified 3 of them
 * right and asked back 8 that no document answers (a quarter of those); no bar between 0.3 and the gate's 0.42
 * clarified a question without asking back more unanswerable ones.
 * @example asksBackByWords('de') // false
 * @example asksBackByWords(undefined) // true
 */
export function asksBackByWords(language: string | undefined): boolean {
  return tokenLanguage(language) === undefined;
}

/** Choices offered at most. */
export const MAX_CHOICES = 3;

/** Longest choice label (characters); the Chat API allows 200. */
const MAX_LABEL = 80;

/** What the bot asks by default before the choices. */
export const CLARIFY_TEXT = 'Did you mean one of these?';

/** The value of a choice: `pick:<fileId>:<position>:<label>`, which the responder answers from directly. */
const PICK = /^pick:([A-Za-z0-9_-]{1,100}):(\d{1,9})(?::([^\n]{0,200}))?$/;

/** A candidate topic the bot offers: its label (a heading or title) and the passage it answers from. */
export interface Candidate {
  label: string;
  passage: SearchPassage;
}

/** A passage to answer from, as a choice's value names it (with the label the choice showed). */
export interface ChoicePick {
  fileId: string;
  position: number;
  label: string;
}

/** The bars of the band (the defaults are the measured ones; tests and tuning may pass others). */
export interface ClarifyBars {
  minEvidence: number;
  minSimilarity: number;
  minCoverage: number;
}

export const CLARIFY_BARS: ClarifyBars = {
  minEvidence: CLARIFY_MIN_EVIDENCE,
  minSimilarity: CLARIFY_MIN_SIMILARITY,
  minCoverage: CLARIFY_MIN_COVERAGE,
};

const HEADINGS = new Set(['title', 'subtitle']);
const passageKey = (p: SearchPassage) => `${p.file.id}#${p.meta.position ?? p.content}`;

/**
 * How sure the search is of its best candidate, on the gate's own scales: `evidence` (the best quote's coverage
 * plus its passage's similarity; coverage alone without a similarity scale) and `similarity` (the closest
 * passage by meaning that is no heading; undefined without a search by meaning).
 */
export function unsureness(
  selection: Pick<Selection, 'best'>,
  semantic: readonly SearchPassage[],
  scaled: boolean,
): { evidence: number; similarity: number | undefined } {
  const best = selection.best;
  const content = semantic.filter((p) => !HEADINGS.has(p.meta.subtype ?? ''));
  const top = content.reduce<number | undefined>(
    (m, p) => (m === undefined || p.score > m ? p.score : m),
    undefined,
  );
  if (!best) return { evidence: 0, similarity: scaled ? top : undefined };
  if (!scaled || semantic.length === 0) return { evidence: best.coverage, similarity: undefined };
  const key = passageKey(best.passage);
  const own = semantic.find((p) => passageKey(p) === key)?.score ?? Math.min(...semantic.map((p) => p.score));
  return { evidence: best.coverage + own, similarity: top };
}

/**
 * Whether a question the gate did not answer is in the "unsure" band, so the bot asks back: its best quote
 * reaches the lower evidence bar (coverage alone without a similarity scale), or its closest passage by meaning
 * reaches the lower similarity bar. A question naming something no passage holds (selection.missingNames) is
 * never asked back: the knowledge does not hold it.
 */
export function isUnsure(
  selection: Pick<Selection, 'best' | 'missingNames'>,
  semantic: readonly SearchPassage[],
  scaled: boolean,
  bars: ClarifyBars = CLARIFY_BARS,
): boolean {
  if (selection.missingNames && selection.missingNames.length > 0) return false;
  const { evidence, similarity } = unsureness(selection, semantic, scaled);
  if (!scaled) return selection.best !== undefined && evidence >= bars.minCoverage;
  return evidence >= bars.minEvidence || (similarity ?? 0) >= bars.minSimilarity;
}

/** A file's name for people: its metadata title, else its key's last part without extension, capitalised. */
function titleOf(file: SearchPassage['file']): string {
  const title = file.metadata.title;
  if (typeof title === 'string' && title.trim()) return title.trim();
  const base = file.key.slice(file.key.lastIndexOf('/') + 1).replace(/\.[A-Za-z0-9]{1,5}$/, '');
  const words = base.replace(/[-_]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : file.key;
}

/** Spaces squeezed, cut to the label length at a word. */
function short(text: string): string {
  const clean = text
    .replace(/\s+/g, ' ')
    .replace(/^#+\s*/, '')
    .trim();
  if (clean.length <= MAX_LABEL) return clean;
  const cut = clean.slice(0, MAX_LABEL - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > MAX_LABEL / 2 ? cut.slice(0, space) : cut}…`;
}

/**
 * The topic a passage belongs to, as a choice names it: its nearest heading; else, for a question-and-answer
 * text, its first line when that is a question; else its document's title.
 * @example labelOf(passage) // 'Returning an item'
 */
export function labelOf(passage: SearchPassage): string {
  const heading = headingOf(passage);
  const nearest = heading[heading.length - 1];
  if (nearest?.trim()) return short(nearest);
  const first = passage.content.trim().split('\n', 1)[0]?.trim() ?? '';
  if (first.endsWith('?') && first.length <= 200) return short(first);
  return short(titleOf(passage.file));
}

/**
 * The candidate passages, best first, each once: the passages of the best quotes, then the closest by meaning
 * and the best by words taking turns. Headings alone, and passages without a position (no choice can name
 * them), are skipped.
 */
export function candidatePassages(
  quotes: readonly Quote[],
  found: readonly SearchPassage[],
  semantic: readonly SearchPassage[],
): SearchPassage[] {
  const bySimilarity = [...semantic].sort((a, b) => b.score - a.score);
  const ordered: SearchPassage[] = quotes.map((q) => q.passage);
  for (let i = 0; i < Math.max(found.length, bySimilarity.length); i++) {
    const s = bySimilarity[i];
    const f = found[i];
    if (s) ordered.push(s);
    if (f) ordered.push(f);
  }
  const seen = new Set<string>();
  return ordered.filter((passage) => {
    if (HEADINGS.has(passage.meta.subtype ?? '') || passage.meta.position === undefined) return false;
    const key = passageKey(passage);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The best distinct candidates (at most `max`), best first, in the order of {@link candidatePassages}; a topic
 * (its label, case aside) is offered once.
 */
export function candidatesOf(
  quotes: readonly Quote[],
  found: readonly SearchPassage[],
  semantic: readonly SearchPassage[],
  max = MAX_CHOICES,
): Candidate[] {
  const out: Candidate[] = [];
  const labels = new Set<string>();
  for (const passage of candidatePassages(quotes, found, semantic)) {
    if (out.length >= max) break;
    const label = labelOf(passage);
    const key = label.toLowerCase();
    if (!label || labels.has(key)) continue;
    labels.add(key);
    out.push({ label, passage });
  }
  return out;
}

/** The value of the choice that answers from a candidate. */
export const pickValue = (c: Candidate): string =>
  `pick:${c.passage.file.id}:${c.passage.meta.position ?? 0}:${c.label}`;

/**
 * The passage a message picks, when it is a choice's value (`pick:<fileId>:<position>:<label>`), else undefined.
 * @example pickOf('pick:file_01:4:Refunds') // { fileId: 'file_01', position: 4, label: 'Refunds' }
 */
export function pickOf(text: string): ChoicePick | undefined {
  const m = PICK.exec(text.trim());
  return m ? { fileId: m[1] as string, position: Number(m[2]), label: (m[3] ?? '').trim() } : undefined;
}

/** The choice payload asking back: the question (the bot's own or {@link CLARIFY_TEXT}) and one option per candidate. */
export function clarifyPayload(
  candidates: readonly Candidate[],
  text: string | undefined,
): MessagePayload & { type: 'choice' } {
  return {
    type: 'choice',
    text: text ?? CLARIFY_TEXT,
    options: candidates.map((c) => ({ label: c.label, value: pickValue(c) })),
  };
}

/**
 * The question a pick answers: the visitor's last message before the bot's choices that offered the picked
 * value (the conversation's history, oldest first); undefined when none is found (e.g. a preview).
 */
export function pickedQuestion(history: readonly ChatMessage[], value: string): string | undefined {
  const offered = history.findLastIndex(
    (m) => m.payload.type === 'choice' && m.payload.options.some((o) => o.value === value),
  );
  if (offered < 0) return undefined;
  for (let i = offered - 1; i >= 0; i--) {
    const m = history[i] as ChatMessage;
    if (m.payload.type === 'text') return (m.payload.value ?? m.payload.text).trim() || undefined;
  }
  return undefined;
}

/** Words quoted from a long picked passage that shares no word with the question (its first sentences). */
const PICKED_WORDS = 60;

/** A picked passage this short is quoted whole (the reply's quote limit, format.ts MAX_QUOTE_CHARS). */
const WHOLE_PASSAGE_CHARS = 600;

/**
 * The quote a pick answers with, from its passage alone and without the gate: the whole passage when it is short
 * (the visitor chose its topic; its lines as the document has them, wrapped prose joined), else its sentences
 * that best answer the question (the extraction's window), else its first sentences.
 */
export function pickedQuote(passage: SearchPassage, question: string | undefined): Quote {
  const whole = logicalLines(passage.content).join('\n').trim();
  const best = question ? extractQuotes(question, [passage])[0] : undefined;
  if (whole && whole.length <= WHOLE_PASSAGE_CHARS) {
    const base = best ?? { coverage: 0, passageCoverage: 0, matched: [] };
    return {
      passage,
      rank: 0,
      text: whole,
      heading: headingOf(passage),
      coverage: base.coverage,
      passageCoverage: base.passageCoverage,
      score: passage.score,
      matched: base.matched,
    };
  }
  if (best) return best;
  return leadingQuote(passage, sentencesOf(passage.content), {
    maxWords: PICKED_WORDS,
    score: passage.score,
  });
}

/**
 * The passage a pick names, read as the bot: searched for in its file alone (by the question, else the label),
 * the passage at the picked position when search returns it, else the file's best one. Undefined when the file
 * is not in the bot's knowledge (another bot's, deleted, or outside its knowledge bases) or holds nothing.
 */
export async function pickedPassage(
  deps: Pick<RetrievalDeps, 'search' | 'knowledgeBases'>,
  ctx: FilesContext,
  pick: ChoicePick,
  question: string | undefined,
): Promise<SearchPassage | undefined> {
  const scoped = await knowledgeScope(deps.knowledgeBases, ctx);
  if (scoped.fileIds && !scoped.fileIds.includes(pick.fileId)) return undefined;
  const query = question ?? (pick.label || 'answer');
  const found = await deps.search.search(ctx, {
    query,
    limit: SEARCH_LIMIT,
    withContext: true,
    fileIds: [pick.fileId],
    mode: 'hybrid',
  });
  const own = found.filter((p) => p.file.id === pick.fileId && !HEADINGS.has(p.meta.subtype ?? ''));
  return own.find((p) => p.meta.position === pick.position) ?? own[0];
}

/**
 * The reply asking back, when the question is in the unsure band ({@link isUnsure}) and at least two distinct
 * candidates name topics: a choice payload (the bot's `clarify` text or {@link CLARIFY_TEXT}, one option per
 * candidate), its message metadata `answer: {mode: 'clarify', choices}` with no sources, and debug details with
 * the band's measures. Undefined otherwise (the bot says it found nothing).
 */
export function clarifyReply(
  retrieved: Pick<Retrieved, 'found' | 'semantic'>,
  selection: Selection,
  scaled: boolean,
  text: string | undefined,
  debug: Record<string, unknown>,
  bars: ClarifyBars = CLARIFY_BARS,
): Reply | undefined {
  const semantic = scaled ? retrieved.semantic : [];
  if (!isUnsure(selection, semantic, scaled, bars)) return undefined;
  const candidates = candidatesOf(selection.best ? [selection.best] : [], retrieved.found, semantic);
  if (candidates.length < 2) return undefined;
  const payload = clarifyPayload(candidates, text);
  const choices = payload.options.map((o, i) => ({
    label: o.label,
    value: o.value,
    fileId: (candidates[i] as Candidate).passage.file.id,
    key: (candidates[i] as Candidate).passage.file.key,
  }));
  return {
    messages: [{ payload, metadata: { answer: { mode: 'clarify', choices }, sources: [] } }],
    debug: {
      mode: 'clarify',
      ...debug,
      clarify: { ...unsureness(selection, semantic, scaled), bars, choices },
    },
  };
}
