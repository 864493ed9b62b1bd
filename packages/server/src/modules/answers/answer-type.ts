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
/** A price, or at least a number. */
const PRICE: Expected = [
  { type: 'price', weight: 1 },
  { type: 'number', weight: 0.5 },
];

/**
 * Alternatives as whole words, case ignored: `\b` knows ASCII letters only, so the words are bounded by
 * anything but a letter or a digit ("coûte", "días", "Größe" are whole words too).
 */
const whole = (...alternatives: string[]) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}])`, 'iu');

/**
 * The question forms by language, tried in order: the first that matches decides. A language adds its own list
 * (the carriers' digits, symbols and codes hold across languages, their words not: see LANGUAGE_CARRIERS).
 */
export const QUESTION_RULES: Readonly<Record<string, readonly QuestionRule[]>> = {
  en: [
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
  fr: [
    {
      asks: whole(
        'combien de (temps|jours|semaines|mois|heures|minutes|ans|années|nuits)',
        'en combien de temps',
        'sous combien',
        'quels? d[ée]lais?',
        'd[ée]lais?',
        'à quelle fréquence',
        'tous les combien',
        'jusqu.à quand',
      ),
      expects: full('duration'),
    },
    {
      asks: whole(
        'combien (co[uû]tent|co[uû]te|vaut|valent|ça co[uû]te|ca co[uû]te|faut.il payer|je (paie|paye|dois payer))',
        'prix',
        'tarifs?',
        'co[uû]ts?',
        'frais',
        'payants?',
        'gratuite?s?',
        'payer',
        'combien pour',
      ),
      expects: PRICE,
    },
    {
      asks: whole('horaires?', 'heures? d.ouverture', 'à quelle heure', 'ouverts?', 'joignables?'),
      expects: full('time'),
    },
    {
      asks: whole('quand', 'quelle date', 'quel jour', 'quelle année', 'quel mois'),
      expects: full('date', 'time', 'duration'),
    },
    {
      asks: whole('combien', 'quel(le)? (pourcentage|âge|taille|nombre|poids|volume|puissance)'),
      expects: full('number'),
    },
    {
      asks: whole('où', '^ou', 'dans quels? pays', 'quels? pays', 'quelle adresse', 'quelle ville'),
      expects: full('place'),
    },
    {
      asks: whole(
        'qui',
        'à qui',
        'quel service',
        'parler à (quelqu.un|un humain|une personne|un conseiller)',
      ),
      expects: full('person'),
    },
  ],
  de: [
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
  es: [
    {
      asks: whole(
        'cu[aá]nto tiempo',
        'cu[aá]ntos (d[ií]as|meses|años|minutos)',
        'cu[aá]ntas (semanas|horas)',
        'cada cu[aá]nto',
        'con qu[eé] frecuencia',
        'qu[eé] plazo',
        'plazos?',
        'hasta cu[aá]ndo',
      ),
      expects: full('duration'),
    },
    {
      asks: whole(
        'cu[aá]nto (cuestan?|vale|valen|cobran|hay que pagar|pago|tengo que pagar|es)',
        'precios?',
        'tarifas?',
        'coste',
        'costo',
        'cuestan?',
        'gastos',
        'gratis',
        'gratuitos?',
        'pagar',
        'cobran',
      ),
      expects: PRICE,
    },
    {
      asks: whole('horarios?', 'a qu[eé] hora', 'cu[aá]ndo (abren|atienden|est[aá]n abiertos)', 'abiertos?'),
      expects: full('time'),
    },
    {
      asks: whole('cu[aá]ndo', 'qu[eé] fecha', 'qu[eé] d[ií]a', 'qu[eé] año'),
      expects: full('date', 'time', 'duration'),
    },
    {
      asks: whole('cu[aá]ntos?', 'cu[aá]ntas?', 'qu[eé] (tamaño|porcentaje|edad|peso)'),
      expects: full('number'),
    },
    {
      asks: whole(
        'd[oó]nde',
        'ad[oó]nde',
        'a qu[eé] pa[ií]s(es)?',
        'qu[eé] pa[ií]s(es)?',
        'qu[eé] direcci[oó]n',
        'qu[eé] ciudad',
      ),
      expects: full('place'),
    },
    {
      asks: whole(
        'qui[eé]n',
        'a qui[eé]n',
        'con qui[eé]n',
        'qu[eé] departamento',
        'hablar con (alguien|una persona|un humano)',
      ),
      expects: full('person'),
    },
  ],
  // Japanese: no spaces, so the forms are plain strings; prices first ("送料はどのくらい" asks a price).
  ja: [
    {
      asks: /いくら|料金|値段|価格|費用|送料|有料|無料|何円|お金|払/u,
      expects: PRICE,
    },
    {
      asks: /何日|何週間|何か月|何ヶ月|何カ月|何時間|何分|何年|何営業日|どのくらい|どれくらい|どのぐらい|どれぐらい|いつまで|期間|期限/u,
      expects: full('duration'),
    },
    { asks: /営業時間|受付時間|何時|時間帯|開いて|やって/u, expects: full('time') },
    { asks: /いつ|何月|何曜日|日付/u, expects: full('date', 'time', 'duration') },
    { asks: /何人|何個|何台|いくつ|何回|何パーセント|大きさ|重さ/u, expects: full('number') },
    { asks: /どこ|どちら|住所|どの国/u, expects: full('place') },
    { asks: /誰|だれ|どなた|担当|窓口/u, expects: full('person') },
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

const FR_NUMBER =
  '\\d+(?:[.,]\\d+)?|une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|quelques';
const DE_NUMBER =
  '\\d+(?:[.,]\\d+)?|eine[mnr]?|ein|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|zwölf|vierzehn|fünfzehn|zwanzig|dreißig|hundert|wenigen?';
const ES_NUMBER =
  '\\d+(?:[.,]\\d+)?|una?|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|quince|veinte|treinta|cuarenta|cincuenta|cien|pocos';

/**
 * What a sentence carrying each answer type holds in a language besides English's {@link CARRIERS} (whose
 * digits, symbols and currency codes hold in every language: "34,90 €", "9:00", "2026-03-01").
 */
export const LANGUAGE_CARRIERS: Readonly<Record<string, Partial<Record<AnswerType, readonly RegExp[]>>>> = {
  fr: {
    number: [
      whole(
        'une?',
        'deux',
        'trois',
        'quatre',
        'cinq',
        'six',
        'sept',
        'huit',
        'neuf',
        'dix',
        'vingt',
        'trente',
        'cent',
        'mille',
        'illimitée?s?',
      ),
    ],
    duration: [
      whole(
        `(?:${FR_NUMBER})[ -](?:\\p{L}+ )?(?:secondes?|minutes?|heures?|jours?|nuits?|semaines?|mois|ans|années?)`,
      ),
      whole(
        'quotidien(ne)?',
        'hebdomadaire',
        'mensuel(le)?',
        'annuel(le)?',
        'le jour même',
        'le lendemain',
        'chaque (jour|semaine|mois|année)',
        '\\d+ ?h',
      ),
    ],
    time: [
      /\b\d{1,2} ?h(?: ?\d{2})?\b/,
      whole('lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche', 'midi', 'minuit'),
    ],
    date: [
      whole(
        'janvier',
        'février',
        'mars',
        'avril',
        'mai',
        'juin',
        'juillet',
        'août',
        'septembre',
        'octobre',
        'novembre',
        'décembre',
        'lundi',
        'mardi',
        'mercredi',
        'jeudi',
        'vendredi',
        'samedi',
        'dimanche',
        'noël',
        'pâques',
      ),
    ],
    price: [
      whole('gratuite?s?', 'gratuitement', 'offerte?s?', 'sans frais', 'sans supplément', 'aucun frais'),
    ],
    place: [
      /(?:^|[^.!?]\s)(?:à|en|au|aux|depuis|vers) \p{Lu}[\p{L}-]+/u,
      whole('adresse', 'situés?', 'siège', 'entrepôt', 'pays', 'ville', 'magasin', 'rue', 'avenue'),
    ],
    person: [whole('service client', 'équipe', 'responsable', 'conseillers?', 'service', 'support')],
  },
  de: {
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
  es: {
    number: [
      whole(
        'una?',
        'uno',
        'dos',
        'tres',
        'cuatro',
        'cinco',
        'seis',
        'siete',
        'ocho',
        'nueve',
        'diez',
        'veinte',
        'cien',
        'mil',
        'ilimitad[oa]s?',
      ),
    ],
    duration: [
      whole(
        `(?:${ES_NUMBER})[ -](?:\\p{L}+ )?(?:segundos?|minutos?|horas?|d[ií]as?|noches?|semanas?|mes|meses|años?)`,
      ),
      whole(
        'diari[oa]',
        'semanal',
        'mensual',
        'anual',
        'el mismo d[ií]a',
        'al d[ií]a siguiente',
        'cada (d[ií]a|semana|mes|año)',
      ),
    ],
    time: [
      /\b\d{1,2} ?h\b/,
      whole(
        'lunes',
        'martes',
        'miércoles',
        'jueves',
        'viernes',
        'sábados?',
        'domingos?',
        'mediodía',
        'medianoche',
        'a las \\d{1,2}',
      ),
    ],
    date: [
      whole(
        'enero',
        'febrero',
        'marzo',
        'abril',
        'mayo',
        'junio',
        'julio',
        'agosto',
        'septiembre',
        'octubre',
        'noviembre',
        'diciembre',
        'lunes',
        'martes',
        'miércoles',
        'jueves',
        'viernes',
        'sábado',
        'domingo',
        'navidad',
      ),
    ],
    price: [whole('gratis', 'gratuit[oa]s?', 'sin coste', 'sin costo', 'sin cargo', 'sin gastos')],
    place: [
      /(?:^|[^.!?]\s)(?:en|a|desde|hacia) \p{Lu}[\p{L}-]+/u,
      whole('dirección', 'situad[oa]', 'sede', 'almacén', 'pa[ií]s(es)?', 'ciudad', 'tienda', 'calle'),
    ],
    person: [
      whole('atención al cliente', 'equipo', 'departamento', 'responsable', 'agente', 'soporte', 'servicio'),
    ],
  },
  ja: {
    number: [/[一二三四五六七八九十百千万]/u],
    duration: [
      /\d+\s?(?:日間|日|週間|か月|ヶ月|カ月|時間|分|年間|年|営業日)/u,
      /即日|翌日|翌営業日|当日|毎日|毎週|毎月|毎年/u,
    ],
    time: [/\d{1,2}時|\d{1,2}:\d{2}|[月火水木金土日]曜|平日|土日|祝日|正午|24時間/u],
    date: [/\d{1,2}月\d{1,2}日|\d{4}年|[月火水木金土日]曜日|年末年始|翌日|翌営業日|当日|即日/u],
    price: [/\d[\d,]*\s?円|[¥￥]\s?\d|無料|有料|送料込み/u],
    place: [/住所|本社|倉庫|店舗|[都道府県市区]|国内|海外|の国/u],
    person: [/担当|窓口|部門|チーム|サポート|カスタマー|係/u],
  },
};

/**
 * Words of a question that ask for its answer type rather than name its subject ("coûte", "kostet", "plazo",
 * "値段"), by language: a sentence that carries the type answers them (a price answers "what does it cost"), so
 * the extraction counts them as held by it (extract.ts). English has none: its figures were tuned without.
 */
export const TYPE_WORDS: Readonly<Record<string, Partial<Record<AnswerType, string>>>> = {
  fr: {
    price: 'coûte coûtent coûter coût coûts prix tarif tarifs payer payant payante frais facturé',
    duration: 'durée dure délai délais jours semaines mois heures',
    time: 'horaires heures ouvert ouverts ouverte',
  },
  de: {
    price: 'kostet kosten preis preise gebühr gebühren zahlen bezahlen kostenlos teuer',
    duration: 'dauer dauert frist fristen tage wochen monate stunden lieferzeit',
    time: 'öffnungszeiten uhrzeit geöffnet offen erreichbar',
  },
  es: {
    price: 'cuesta cuestan coste costo precio precios vale valen pagar pago cobran tarifa',
    duration: 'tarda tardan plazo plazos dura duración días semanas meses horas',
    time: 'horario horarios abren abierto abierta',
  },
  ja: {
    price: '値段 料金 価格 費用 送料 手数料',
    duration: '期間 日数 期限 間隔 何日',
    time: '営業時間 受付時間 時間',
  },
};

/**
 * The answer types a question in `language` expects, the first the most (empty when its form says nothing:
 * "Can I…?", or the language has no rules).
 * @example expectedAnswer('What are your support hours?') // [{ type: 'time', weight: 1 }]
 * @example expectedAnswer('How much are the headphones?') // [{ type: 'price', weight: 1 }, { type: 'number', weight: 0.5 }]
 * @example expectedAnswer('Combien de jours pour un retour ?', 'fr') // [{ type: 'duration', weight: 1 }]
 */
export function expectedAnswer(question: string, language = 'en'): Expected {
  for (const rule of QUESTION_RULES[language] ?? []) if (rule.asks.test(question)) return rule.expects;
  return [];
}

/** Whether a sentence carries an answer of this type (English's carriers, and those of `language`). */
export function carries(sentence: string, type: AnswerType, language?: string): boolean {
  const own = language ? LANGUAGE_CARRIERS[language]?.[type] : undefined;
  return (
    CARRIERS[type].some((pattern) => pattern.test(sentence)) || own?.some((p) => p.test(sentence)) === true
  );
}

/**
 * How well a sentence carries what the question expects: the weight of the first expected type it carries
 * (1 for the question's own type, less for a looser one), 0 when it carries none.
 * @example carrierWeight('Call us 9:00–17:00.', expectedAnswer('What are your support hours?')) // 1
 * @example carrierWeight('Die Frist beträgt 30 Tage.', expectedAnswer('Wie lange habe ich Zeit?', 'de'), 'de') // 1
 */
export function carrierWeight(sentence: string, expected: Expected, language?: string): number {
  let best = 0;
  for (const { type, weight } of expected)
    if (weight > best && carries(sentence, type, language)) best = weight;
  return best;
}
