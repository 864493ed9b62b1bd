// Spanish answer types: the question forms, the words of a sentence that carry an answer, the type words.
import { full, type LanguageTable, PRICE, whole } from './shared.js';

const ES_NUMBER =
  '\\d+(?:[.,]\\d+)?|una?|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|quince|veinte|treinta|cuarenta|cincuenta|cien|pocos';

/** Spanish: see {@link LanguageTable}. */
export const es: LanguageTable = {
  rules: [
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
  carriers: {
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
  typeWords: {
    price: 'cuesta cuestan coste costo precio precios vale valen pagar pago cobran tarifa',
    duration: 'tarda tardan plazo plazos dura duración días semanas meses horas',
    time: 'horario horarios abren abierto abierta',
  },
};
