import Type, { type Static } from 'typebox';

/** How long a visitor waits for a person by default before the bot says nobody came (seconds). */
export const DEFAULT_HANDOFF_WAIT_SECONDS = 300;
/** The bounds of a bot's handoff wait (seconds): a second to a day. */
export const HANDOFF_WAIT_LIMITS = { min: 1, max: 86_400 } as const;

/** Days of the week, as opening hours name them. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** A day of the week. */
export type Weekday = (typeof WEEKDAYS)[number];

const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24 h' });

/** When people answer: spans of the week in a time zone. */
export const OpeningHours = Type.Object(
  {
    timezone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone, e.g. Europe/Paris' }),
    days: Type.Array(
      Type.Object(
        {
          day: Type.Union(WEEKDAYS.map((d) => Type.Literal(d))),
          from: ClockTime,
          to: ClockTime,
        },
        { additionalProperties: false },
      ),
      {
        maxItems: 28,
        description: 'Open spans, from before to (e.g. {day: "mon", from: "09:00", to: "17:30"})',
      },
    ),
  },
  { additionalProperties: false },
);
/** Opening hours type. */
export type OpeningHours = Static<typeof OpeningHours>;

/**
 * A bot's human handoff settings: `waitSeconds` (default 300) a visitor waits for a person before the bot says
 * nobody came and offers to take an e-mail address; `openingHours`: outside them the bot says so at once;
 * `offerAfterMisses`: after how many "not found" replies in a conversation the bot offers a person (0: never,
 * the default); `webhookUrl`: where `conversation.handoff_requested` is POSTed (signed as the bot's webhooks).
 */
export const BotHandoff = Type.Object(
  {
    waitSeconds: Type.Optional(
      Type.Integer({ minimum: HANDOFF_WAIT_LIMITS.min, maximum: HANDOFF_WAIT_LIMITS.max }),
    ),
    openingHours: Type.Optional(OpeningHours),
    offerAfterMisses: Type.Optional(
      Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)], {
        description: 'Offer "Talk to a person" with the not-found reply: 0 never (default), 1 or 2 misses',
      }),
    ),
    webhookUrl: Type.Optional(
      Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()], {
        description: 'http(s) URL receiving conversation.handoff_requested, signed with the webhook secret',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Human handoff: waitSeconds (default 300), openingHours {timezone, days}, offerAfterMisses (0, 1, 2), webhookUrl. On update the object replaces the whole set',
  },
);
/** Bot handoff settings type. */
export type BotHandoff = Static<typeof BotHandoff>;

/** The value of the "Talk to a person" option the bot offers (a choice): picking it asks for a person. */
export const HANDOFF_CHOICE_VALUE = 'parley:handoff';

const WEEKDAY_OF: Record<string, Weekday> = {
  Mon: 'mon',
  Tue: 'tue',
  Wed: 'wed',
  Thu: 'thu',
  Fri: 'fri',
  Sat: 'sat',
  Sun: 'sun',
};

/**
 * Whether `at` falls within the opening hours (always, when there are none). A span's `to` is not included.
 * @example withinOpeningHours({timezone: 'UTC', days: [{day: 'mon', from: '09:00', to: '17:00'}]}, new Date('2026-12-07T10:00:00Z')) // true
 */
export function withinOpeningHours(hours: OpeningHours | undefined, at: Date): boolean {
  if (!hours) return true;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: hours.timezone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = WEEKDAY_OF[part('weekday')];
  const time = `${part('hour')}:${part('minute')}`;
  return hours.days.some((span) => span.day === day && span.from <= time && time < span.to);
}
