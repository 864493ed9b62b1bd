// German answer types: the question forms, the words of a sentence that carry an answer, the type words.
import { full, type LanguageTable, PRICE, whole } from './shared.js';

const DE_NUMBER =
  '\\d+(?:[.,]\\d+)?|eine[mnr]?|ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|zwölf|vierzehn|fünfzehn|zwanzig|dreißig|hundert|wenigen?';

/** German: see {@link LanguageTable}. */
export const de: LanguageTable = {
  rules: [
    {
      asks: whole(
        'wie lange',
        'wie schnell',
        'wie oft',
        'wie ?viele (tage|wochen|monate|stunden|minuten|jahre|werktage|arbeitstage)',
        'wie ?viel zeit',
        'innerhalb welcher',
        'bis wann',
        'welche frist',
        'frist',
      ),
      expects: full('duration'),
    },
    {
      asks: whole(
        'was kosten?',
        'wie ?viel (kostet|kosten|zahle|bezahle|muss ich zahlen)',
        'wie teuer',
        'preise?',
        'kosten',
        'kostet',
        'gebühren?',
        'kostenlos',
        'gratis',
        'zahlen',
        'bezahlen',
        'aufpreis',
      ),
      expects: PRICE,
    },
    {
      asks: whole(
        'öffnungszeiten',
        'sprechzeiten',
        'servicezeiten',
        'geschäftszeiten',
        'erreichbar',
        'um wie ?viel uhr',
        'uhrzeit',
        'geöffnet',
      ),
      expects: full('time'),
    },
    {
      asks: whole('wann', 'welches datum', 'an welchem tag', 'welcher tag', 'welches jahr'),
      expects: full('date', 'time', 'duration'),
    },
    {
      asks: whole('wie ?viele?', 'wie (groß|schwer|alt|hoch|laut|weit|breit)', 'welche größe'),
      expects: full('number'),
    },
    {
      asks: whole('wo', 'wohin', 'woher', 'welches land', 'welche länder', 'welche adresse', 'welche stadt'),
      expects: full('place'),
    },
    {
      asks: whole('wer', 'wem', 'an wen', 'welche abteilung', 'mit einem menschen', 'mit jemandem'),
      expects: full('person'),
    },
  ],
  carriers: {
    number: [
      whole(
        'eine?[mnr]?',
        'zwei',
        'drei',
        'vier',
        'fünf',
        'sechs',
        'sieben',
        'acht',
        'neun',
        'zehn',
        'zwanzig',
        'hundert',
        'tausend',
        'unbegrenzt',
      ),
    ],
    duration: [
      whole(
        `(?:${DE_NUMBER})[ -](?:\\p{L}+ )?(?:sekunden?|minuten?|stunden?|tagen?|tage|nächten?|wochen?|monaten?|monate|jahren?|jahre|werktagen?|werktage|arbeitstagen?|arbeitstage)`,
      ),
      whole(
        'täglich',
        'wöchentlich',
        'monatlich',
        'jährlich',
        'am selben tag',
        'am nächsten (werk)?tag',
        '\\d+ ?std',
      ),
    ],
    time: [
      whole(
        '\\d{1,2}(?:[.:]\\d{2})? ?uhr',
        'montags?',
        'dienstags?',
        'mittwochs?',
        'donnerstags?',
        'freitags?',
        'samstags?',
        'sonntags?',
        'werktags',
        'mittag',
        'mitternacht',
      ),
    ],
    date: [
      whole(
        'januar',
        'februar',
        'märz',
        'april',
        'mai',
        'juni',
        'juli',
        'august',
        'september',
        'oktober',
        'november',
        'dezember',
        'montag',
        'dienstag',
        'mittwoch',
        'donnerstag',
        'freitag',
        'samstag',
        'sonntag',
        'weihnachten',
        'ostern',
      ),
      /\b\d{1,2}\. (?:\p{Lu}\p{Ll}+)/u,
    ],
    price: [whole('kostenlos', 'kostenfrei', 'gratis', 'ohne aufpreis', 'keine kosten', 'entfällt')],
    place: [
      /(?:^|[^.!?]\s)(?:in|nach|aus|bei|ab) \p{Lu}[\p{L}-]+/u,
      whole('adresse', 'sitz', 'lager', 'standort', 'land', 'länder', 'stadt', 'straße', 'filiale'),
    ],
    person: [
      whole(
        'kundenservice',
        'kundendienst',
        'team',
        'abteilung',
        'ansprechpartner(in)?',
        'support',
        'service',
      ),
    ],
  },
  typeWords: {
    price: 'kostet kosten preis preise gebühr gebühren zahlen bezahlen kostenlos teuer',
    duration: 'dauer dauert frist fristen tage wochen monate stunden lieferzeit',
    time: 'öffnungszeiten uhrzeit geöffnet offen erreichbar',
  },
};
