// What kind of answer a question expects (a duration, a time of day, a price, a place, a person…) and whether a
// sentence carries one. Table-driven: a language adds its rows to QUESTION_RULES and its words to CARRIERS.
// Pure functions, no I/O; extract.ts uses them to prefer, within a passage, the sentence that states the answer.

/** A kind of answer a question can expect. */
export type AnswerType = 'duration' | 'number' | 'time' | 'date' | 'price' | 'place' | 'person';

/** What a question expects: its answer types, each with how much a sentence carrying it is preferred (0 to 1). */
export type Expected = ReadonlyArray<{ type: AnswerType; weight: number }>;

/** A question form and the answer types it expects, the first the most. */
interface QuestionRule {
  /** Matched against the question's text (case ignored). */
  asks: RegExp;
  expects: Expected;
}

const full = (...types: AnswerType[]): Expected => types.map((type) => ({ type, weight: 1 }));

/**
 * The question forms by language, tried in order: the first that matches decides. English only so far; a
 * language adds its own list (the carriers' digits, symbols and codes hold across languages, their words not).
 */
export const QUESTION_RULES: Readonly<Record<string, readonly QuestionRule[]>> = {
  en: [
    {
      asks: /\bhow (long|soon|quickly|fast|often|frequently)\b|\bhow many (seconds|minutes|hours|days|nights|weeks|months|years|(working|business|calendar) days)\b|\bhow much time\b|\bhow far (back|ahead|in advance)\b|\bwithin what\b/i,
      expects: full('duration'),
    },
    {
      asks: /\bhow much (is|are|was|were|does|do|did|will|would|for)\b|\bhow expensive\b|\bprice[sd]?\b|\bpricing\b|\bcosts?\b|\bfees?\b|\bcharges\b|\bcharged for\b|\bpay (for|extra)\b|\b(do|does|will|would) (i|we|you) (have to )?pay\b/i,
      expects: [
        { type: 'price', weight: 1 },
        { type: 'number', weight: 0.5 },
      ],
    },
    {
      asks: /\b(opening|office|business|support|core|working|service|phone|call cent(re|er)|store|shop) hours\b|\bwhat hours\b|\bwhat time\b|\bhours\b|\bwhen (are|is|do|does)\b.*\b(open|closed|available|reachable|staffed)\b|\bwhen can (i|we) (call|reach|phone|contact|talk|speak|visit|ring|come)\b/i,
      expects: full('time'),
    },
    {
      asks: /\bwhen\b|\bwhat (date|day|year|month)\b|\bwhich (date|day|year|month)s?\b|\bdays? off\b/i,
      expects: full('date', 'time', 'duration'),
    },
    {
      asks: /\bhow (many|much|old|big|large|heavy|tall|high|wide|loud|far)\b|\bwhat (percentage|percent|age|size|number)\b/i,
      expects: full('number'),
    },
    {
      asks: /\bwhere\b|\b(which|what) (country|countries|city|cities|region|address|location)\b/i,
      expects: full('place'),
    },
    {
      asks: /\bwho(m|se)?\b|\b(which|what) (person|team|department|manager)\b|\b(contact|talk to|speak to|write to|reach) (someone|somebody|a person|a human)\b/i,
      expects: full('person'),
    },
  ],
};

const NUMBER_WORD =
  '\\d+(?:[.,]\\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|a few|several';
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekdays?|weekends?';
const CURRENCY_CODES = 'EUR|USD|GBP|CHF|CAD|AUD|JPY|SEK|NOK|DKK|PLN|CZK';
/** Month and weekday names as they start a sentence's word (`Saturday`): capitalised, yet no place. */
const CALENDAR_NAMES = `${MONTHS}|${WEEKDAYS}`.replace(
  /(^|\|)([a-z])/g,
  (_, bar: string, c: string) => bar + c.toUpperCase(),
);

/**
 * Types whose carriers are guesses (a capitalised word after "in" may be a place or a company, "team" may not
 * name who answers): they choose among a passage's sentences, never one passage over another. On SQuAD's held-out
 * split, letting "where" move passages turned 2 right answers wrong (bench/answers.ts).
 */
export const GUESSED_TYPES: ReadonlySet<AnswerType> = new Set(['place', 'person']);

/** What a sentence carrying each answer type holds (any one pattern). */
export const CARRIERS: Readonly<Record<AnswerType, readonly RegExp[]>> = {
  number: [
    /\d/,
    /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|billion|half|once|twice|dozen|unlimited)\b/i,
  ],
  duration: [
    new RegExp(
      `\\b(?:${NUMBER_WORD})[ -](?:[a-z]+ )?(?:seconds?|minutes?|hours?|days?|nights?|weeks?|months?|years?|quarters?)\\b`,
      'i',
    ),
    /\b(daily|weekly|monthly|yearly|annually|hourly|fortnightly|overnight|same day|next (working |business )?day|every (other )?(day|week|month|year|hour))\b/i,
  ],
  time: [
    /\b\d{1,2}(?:[:.]\d{2})?\s?(?:am|pm|a\.m\.|p\.m\.)(?!\w)/i,
    /\b\d{1,2}[:h]\d{2}\b/,
    /\b\d{1,2}\s?[-–]\s?\d{1,2}\s?(?:h|o'clock)\b/i,
    /\b(noon|midday|midnight|24\/7|around the clock|round the clock)\b/i,
    new RegExp(`\\b(${WEEKDAYS})\\b`, 'i'),
  ],
  date: [
    new RegExp(`\\b(${MONTHS}|${WEEKDAYS})\\b`, 'i'),
    /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b(1[5-9]|20)\d{2}\b|\b\d{1,2}(st|nd|rd|th)\b/i,
    /\b(christmas|easter|new year)\b/i,
  ],
  price: [
    /[€$£¥₹]\s?\d/,
    new RegExp(
      `\\d(?:[\\d.,]*\\d)?\\s?(?:[€$£]|(?:${CURRENCY_CODES})\\b|(?:euros?|dollars?|pounds?|cents?|francs?)\\b)`,
      'i',
    ),
    new RegExp(`\\b(?:${CURRENCY_CODES})\\s?\\d`),
    /\b(free of charge|at no (extra )?cost|no charge|for free|is free|are free|costs? nothing)\b/i,
  ],
  place: [
    // A capitalised name after a preposition, inside the sentence: "in Leipzig", "at Frankfurt".
    new RegExp(
      `(?:^|[^.!?]\\s)(?:in|at|from|near|inside|outside|within|to) (?:the )?(?!(?:${CALENDAR_NAMES})\\b)\\p{Lu}[\\p{L}-]+`,
      'u',
    ),
    /\b\d+,? [\p{L} ]{2,40} (street|st\.|road|rd\.|avenue|ave\.|lane|strasse|straße|boulevard|square|way)\b/iu,
    /\b(address|located|headquarters|showroom|warehouse|data cent(re|er)s?|region|country|countries|city|building|floor)\b/i,
    /\b[\w-]+\.(?:example|com|org|net|io|eu|de|fr|co\.uk)(?:\/\S*)?/i,
    /\w ?(?:>|›|→) ?\w/,
  ],
  person: [
    /\b[\w.+-]+@[\w-]+\.[\w.]+\b/,
    /\b(manager|team lead|team|department|officer|human resources|HR|administrator|admin|owner|supervisor|director|head of|representative|agent|colleague|staff|support)\b/i,
    // Two capitalised words inside the sentence: a person's name.
    /[^.!?]\s\p{Lu}\p{Ll}+ \p{Lu}\p{Ll}+/u,
  ],
};

/**
 * The answer types a question expects, the first the most (empty when its form says nothing: "Can I…?").
 * @example expectedAnswer('What are your support hours?') // [{ type: 'time', weight: 1 }]
 * @example expectedAnswer('How much are the headphones?') // [{ type: 'price', weight: 1 }, { type: 'number', weight: 0.5 }]
 */
export function expectedAnswer(question: string, language = 'en'): Expected {
  for (const rule of QUESTION_RULES[language] ?? []) if (rule.asks.test(question)) return rule.expects;
  return [];
}

/** Whether a sentence carries an answer of this type. */
export function carries(sentence: string, type: AnswerType): boolean {
  return CARRIERS[type].some((pattern) => pattern.test(sentence));
}

/**
 * How well a sentence carries what the question expects: the weight of the first expected type it carries
 * (1 for the question's own type, less for a looser one), 0 when it carries none.
 * @example carrierWeight('Call us 9:00–17:00.', expectedAnswer('What are your support hours?')) // 1
 */
export function carrierWeight(sentence: string, expected: Expected): number {
  let best = 0;
  for (const { type, weight } of expected) if (weight > best && carries(sentence, type)) best = weight;
  return best;
}
