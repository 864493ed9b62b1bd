import type { FormField } from '../../form.js';
import { t } from '../../i18n.js';
import { Field } from '../field.js';
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
 * A website form's "Crawl again" select, and its cron expression field when the times of a cron are chosen (the
 * add form's and each site's settings form's; `idPrefix` keeps their ids apart).
 */
export function ScheduleFields(props: {
  idPrefix: string;
  schedule: FormField<ScheduleChoice>;
  cron: FormField<string>;
}) {
  const { idPrefix, schedule, cron } = props;
  return (
    <>
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
