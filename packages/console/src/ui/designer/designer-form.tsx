import { ApiError, type WebchatConfiguration } from '@parley/client';
import { useEffect, useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { type Form, type FormField, useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { type MessageKey, t } from '../../i18n.js';
import { Notice } from '../notice.js';
import {
  type DesignerValues,
  FIELD_NAMES,
  FIELDS,
  type FieldName,
  GROUPS,
  type GroupName,
  type LinkValue,
  toConfiguration,
  toValues,
} from './fields.js';
import {
  BoolConfigInput,
  ColorConfigInput,
  EnumConfigInput,
  LinkConfigInput,
  ListConfigInput,
  TextConfigInput,
} from './inputs.js';

/**
 * The Admin API's messages of a refused configuration (`metadata.errors: [{field, message}]`), by the
 * configuration field they name (`phone.link` → `phone`).
 */
export function webchatFieldErrors(failure: unknown): Map<FieldName, string> {
  const found = new Map<FieldName, string>();
  if (!(failure instanceof ApiError) || failure.status !== 400) return found;
  const list = failure.metadata?.errors;
  if (!Array.isArray(list)) return found;
  for (const entry of list as Array<{ field?: unknown; message?: unknown }>) {
    const name = String(entry.field ?? '').split('.')[0] as FieldName;
    if (!FIELD_NAMES.includes(name) || typeof entry.message !== 'string') continue;
    found.set(name, found.has(name) ? `${found.get(name)}; ${entry.message}` : entry.message);
  }
  return found;
}

/** One configuration field's input, by its kind. */
function ConfigInput({ form, name }: { form: Form<DesignerValues>; name: FieldName }) {
  const spec = FIELDS[name];
  const field: unknown = form.field(name);
  switch (spec.kind) {
    case 'bool':
      return <BoolConfigInput name={name} spec={spec} field={field as FormField<boolean | undefined>} />;
    case 'link':
      return <LinkConfigInput name={name} spec={spec} field={field as FormField<LinkValue>} />;
    case 'list':
      return <ListConfigInput name={name} spec={spec} field={field as FormField<string[]>} />;
    case 'color':
      return <ColorConfigInput name={name} spec={spec} field={field as FormField<string>} />;
    case 'enum':
      return <EnumConfigInput name={name} spec={spec} field={field as FormField<string>} />;
    default:
      return <TextConfigInput name={name} spec={spec} field={field as FormField<string>} />;
  }
}

/** The fields of one group, in a fieldset with its title. */
function Group({
  form,
  group,
  title,
  hidden,
}: {
  form: Form<DesignerValues>;
  group: GroupName;
  title: MessageKey;
  hidden: ReadonlySet<FieldName>;
}) {
  const names = FIELD_NAMES.filter((n) => FIELDS[n].group === group && !hidden.has(n));
  const noFooter = form.field('noFooter');
  return (
    <fieldset class="card stack designer-group">
      <legend>{t(title)}</legend>
      {names.map((name) => (
        <ConfigInput key={name} form={form} name={name} />
      ))}
      {group === 'texts' ? (
        <div class="designer-toggle">
          <input
            id="wc-noFooter"
            type="checkbox"
            checked={noFooter.value}
            onChange={(e) => noFooter.onValue(e.currentTarget.checked)}
          />
          <label for="wc-noFooter">{t('designer.noFooter')}</label>
        </div>
      ) : null}
    </fieldset>
  );
}

/**
 * The form of every webchat configuration field, grouped; `onChange` hears each change (the live preview);
 * Save replaces the configuration, and a refusal shows the Admin API's message beside each field it names.
 * "Saved." and "Unsaved changes" are never shown together: a change after Save takes "Saved." away.
 */
export function DesignerForm({
  botId,
  saved,
  canEdit,
  hidden,
  onChange,
  onSaved,
}: {
  botId: string;
  saved: WebchatConfiguration;
  canEdit: boolean;
  /** Fields not shown (the adminKey to a role that may not read it). */
  hidden: ReadonlySet<FieldName>;
  onChange(configuration: Record<string, unknown>): void;
  onSaved(configuration: WebchatConfiguration): void;
}) {
  const { client } = useConsole();
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [refused, setRefused] = useState(false);
  const form = useForm<DesignerValues>(toValues(saved), async (values) => {
    setNotice(undefined);
    setRefused(false);
    let failure: unknown;
    const answer = await run(() =>
      client
        .updateBotWebchat({ id: botId, configuration: toConfiguration(values) as WebchatConfiguration })
        .catch((e: unknown) => {
          failure = e;
          throw e;
        }),
    );
    if (!answer) {
      const fields = webchatFieldErrors(failure);
      for (const [name, message] of fields) form.setFieldError(name, message);
      setRefused(fields.size > 0);
      return;
    }
    form.reset(toValues(answer.configuration));
    setNotice(t('designer.saved'));
    onSaved(answer.configuration);
  });
  // The live preview hears every change of the values (once per distinct configuration).
  const draft = toConfiguration(form.values);
  const draftKey = JSON.stringify(draft);
  useEffect(() => onChange(draft), [draftKey]);

  return (
    <form class="stack designer-form" onSubmit={form.submit} aria-label={t('designer.form')} noValidate>
      <fieldset class="designer-all" disabled={!canEdit}>
        <legend class="designer-hidden-legend">{t('designer.form')}</legend>
        <div class="stack">
          {GROUPS.map((g) => (
            <Group key={g.name} form={form} group={g.name} title={g.title} hidden={hidden} />
          ))}
        </div>
      </fieldset>
      {canEdit ? (
        <div class="designer-save card">
          <div class="actions">
            <button type="submit" class="primary" disabled={pending || form.submitting}>
              {pending ? t('action.saving') : t('action.save')}
            </button>
            {form.dirty ? <span class="muted">{t('designer.unsaved')}</span> : null}
          </div>
          <Notice error={refused ? t('designer.refused') : error} done={form.dirty ? undefined : notice} />
        </div>
      ) : null}
    </form>
  );
}
