import type { Form, FormField } from '../../form.js';
import { type MessageKey, t } from '../../i18n.js';
import { Field, Toggle } from '../field.js';
import { type Choice, SelectField } from '../select-field.js';
import type { ScheduleChoice } from './skip-words.js';
import type { WebsiteSettings } from './website-settings.js';

/** The choices of "Crawl again", in the Console's language. */
const scheduleChoices = (): Choice<ScheduleChoice>[] => [
  { value: 'off', label: t('site.scheduleOff') },
  { value: 'daily', label: t('site.scheduleDaily') },
  { value: 'weekly', label: t('site.scheduleWeekly') },
  { value: 'cron', label: t('site.scheduleCron') },
];

/** The crawl's limits a website form takes: their ids, words and bounds (those of the API). */
const LIMITS = {
  maxPages: { id: 'max-pages', label: 'site.maxPages', min: 1, max: 10_000 },
  maxDepth: { id: 'max-depth', label: 'site.maxDepth', min: 0, max: 50 },
} as const satisfies Record<string, { id: string; label: MessageKey; min: number; max: number }>;

/** A whole number input with its label: one limit of the crawl. */
function LimitField(props: { idPrefix: string; name: keyof typeof LIMITS; field: FormField<string> }) {
  const { id, label, min, max } = LIMITS[props.name];
  return (
    <Field
      id={`${props.idPrefix}-${id}`}
      label={t(label)}
      type="number"
      min={min}
      max={max}
      required
      {...props.field}
    />
  );
}

/**
 * A website form's settings a site keeps: its include and exclude patterns, its page and link-depth limits, its
 * subdomains, "Crawl again" and the cron expression field when the times of a cron are chosen (the add form's and
 * each site's settings form's; `idPrefix` keeps their ids apart).
 */
export function SiteFields<T extends WebsiteSettings>(props: { idPrefix: string; form: Form<T> }) {
  const { idPrefix, form } = props;
  const schedule = form.field('schedule');
  return (
    <>
      <Field
        id={`${idPrefix}-include`}
        label={t('site.include')}
        hint={t('site.includeHint')}
        {...form.field('include')}
      />
      <Field
        id={`${idPrefix}-exclude`}
        label={t('site.exclude')}
        hint={t('site.excludeHint')}
        {...form.field('exclude')}
      />
      {(['maxPages', 'maxDepth'] as const).map((name) => (
        <LimitField key={name} idPrefix={idPrefix} name={name} field={form.field(name)} />
      ))}
      <Toggle label={t('site.subdomains')} {...form.field('subdomains')} />
      <SelectField
        id={`${idPrefix}-schedule`}
        label={t('site.schedule')}
        choices={scheduleChoices()}
        value={schedule.value}
        onValue={schedule.onValue}
      />
      {schedule.value === 'cron' ? (
        <Field
          id={`${idPrefix}-cron`}
          label={t('site.cron')}
          hint={t('site.cronHint')}
          placeholder="0 3 * * 1"
          autocomplete="off"
          required
          maxLength={120}
          {...form.field('cron')}
        />
      ) : null}
    </>
  );
}
