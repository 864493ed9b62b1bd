// French answer types: the question forms, the words of a sentence that carry an answer, the type words.
import { full, type LanguageTable, PRICE, whole } from './shared.js';

const FR_NUMBER =
  '\\d+(?:[.,]\\d+)?|une?|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|douze|quinze|vingt|trente|quarante|cinquante|soixante|cent|quelques';

/** French: see {@link LanguageTable}. */
export const fr: LanguageTable = {
  rules: [
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
  carriers: {
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
  typeWords: {
    price: 'coûte coûtent coûter coût coûts prix tarif tarifs payer payant payante frais facturé',
    duration: 'durée dure délai délais jours semaines mois heures',
    time: 'horaires heures ouvert ouverts ouverte',
  },
};
