import type { FormField } from '../../form.js';
import { t } from '../../i18n.js';
import { Field, Toggle } from '../field.js';
import { type Choice, SelectField } from '../select-field.js';
import type { ScheduleChoice } from './skip-words.js';

/** The choices of "Crawl again", in the Console's language. */
const scheduleChoices = (): Choice<ScheduleChoice>[] => [
  { value: 'off', label: t('site.scheduleOff') },
  { value: 'daily', label: t('site.scheduleDaily') },
  { value: 'weekly', label: t('site.scheduleWeekly') },
  { value: 'cron', label: t('site.scheduleCron') },
];

/**
 * A website form's settings a site keeps: its include and exclude patterns, its page and link-depth limits, its
 * subdomains, "Crawl again" and the
 * cron expression field when the times of a cron are chosen (the add form's and each site's settings form's;
 * `idPrefix` keeps their ids apart).
 */
export function SiteFields(props: {
  idPrefix: string;
  include: FormField<string>;
  exclude: FormField<string>;
  maxPages: FormField<string>;
  maxDepth: FormField<string>;
  subdomains: FormField<boolean>;
  schedule: FormField<ScheduleChoice>;
  cron: FormField<string>;
}) {
  const { idPrefix, include, exclude, maxPages, maxDepth, subdomains, schedule, cron } = props;
  return (
    <>
      <Field id={`${idPrefix}-include`} label={t('site.include')} hint={t('site.includeHint')} {...include} />
      <Field id={`${idPrefix}-exclude`} label={t('site.exclude')} hint={t('site.excludeHint')} {...exclude} />
      <div class="field">
        <label for={`${idPrefix}-max-pages`}>{t('site.maxPages')}</label>
        <input
          id={`${idPrefix}-max-pages`}
          type="number"
          min={1}
          max={10000}
          required
          value={maxPages.value}
          onInput={(event) => maxPages.onValue(event.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for={`${idPrefix}-max-depth`}>{t('site.maxDepth')}</label>
        <input
          id={`${idPrefix}-max-depth`}
          type="number"
          min={0}
          max={50}
          required
          value={maxDepth.value}
          onInput={(event) => maxDepth.onValue(event.currentTarget.value)}
        />
      </div>
      <Toggle label={t('site.subdomains')} value={subdomains.value} onValue={subdomains.onValue} />
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
          {...cron}
        />
      ) : null}
    </>
  );
}
