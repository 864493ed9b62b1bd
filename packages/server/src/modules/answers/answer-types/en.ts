// English answer types: the question forms and the words of a sentence that carry an answer (whose digits,
// symbols and currency codes serve every language). No type words: English's figures were tuned without.
import { type AnswerType, full, type LanguageTable, PRICE } from './shared.js';

/** English: see {@link LanguageTable}; its carriers are {@link CARRIERS}, read in every language. */
export const en: LanguageTable = {
  rules: [
    {
      asks: /\bhow (long|soon|quickly|fast|often|frequently)\b|\bhow many (seconds|minutes|hours|days|nights|weeks|months|years|(working|business|calendar) days)\b|\bhow much time\b|\bhow far (back|ahead|in advance)\b|\bwithin what\b/i,
      expects: full('duration'),
    },
    {
      asks: /\bhow much (is|are|was|were|does|do|did|will|would|for)\b|\bhow expensive\b|\bprice[sd]?\b|\bpricing\b|\bcosts?\b|\bfees?\b|\bcharges\b|\bcharged for\b|\bpay (for|extra)\b|\b(do|does|will|would) (i|we|you) (have to )?pay\b/i,
      expects: PRICE,
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
  carriers: {},
  typeWords: {},
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
