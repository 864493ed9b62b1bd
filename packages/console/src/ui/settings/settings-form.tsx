import type { Workspace } from '@parley/client';
import { useState } from 'preact/hooks';
import { useConsole } from '../../context.js';
import { useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Field, type FieldProps } from '../field.js';
import { Notice } from '../notice.js';
import { apiFieldErrors } from './field-errors.js';

/** The settings a person sets here: everything `PUT /v1/admin/workspaces/{id}` takes. */
export interface SettingsValues {
  name: string;
  about: string;
  contactEmail: string;
  website: string;
}

const NAMES = ['name', 'about', 'contactEmail', 'website'] as const;

/** The form's inputs, in order: each setting's label, kind and hint, in the Console's language. */
const inputs = (): ReadonlyArray<Omit<FieldProps, 'value' | 'onValue'> & { name: keyof SettingsValues }> => [
  {
    name: 'name',
    id: 'workspace-name',
    label: t('settings.name'),
    autocomplete: 'organization',
    hint: t('settings.nameHint'),
  },
  {
    name: 'about',
    id: 'workspace-about',
    label: t('settings.about'),
    type: 'textarea',
    hint: t('settings.aboutHint'),
  },
  {
    name: 'contactEmail',
    id: 'workspace-contact-email',
    label: t('settings.contact'),
    type: 'email',
    autocomplete: 'email',
    hint: t('settings.contactHint'),
  },
  {
    name: 'website',
    id: 'workspace-website',
    label: t('settings.website'),
    type: 'url',
    autocomplete: 'url',
    hint: t('settings.websiteHint'),
  },
];

/** The settings of `workspace` as the form's values. */
export function settingsOf(workspace: Workspace): SettingsValues {
  return {
    name: workspace.name,
    about: workspace.about,
    contactEmail: workspace.contactEmail,
    website: workspace.website,
  };
}

/**
 * Edits the workspace's settings and saves them with one request; a refused value gets the Admin API's own
 * message beside its field and nothing changes. After a save the switcher and pages show the new name.
 */
export function SettingsForm({ workspace, onSaved }: { workspace: Workspace; onSaved(): void }) {
  const { client, workspaceChanged } = useConsole();
  const { pending, error, run } = useAction();
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const form = useForm(settingsOf(workspace), async (values) => {
    setSaved(undefined);
    const answer = await run(async () => {
      try {
        return await client.updateWorkspace({
          id: workspace.id,
          name: values.name.trim(),
          about: values.about.trim(),
          contactEmail: values.contactEmail.trim(),
          website: values.website.trim(),
        });
      } catch (failure) {
        const fields = apiFieldErrors(failure, NAMES);
        if (!fields) throw failure;
        for (const name of NAMES) if (fields[name]) form.setFieldError(name, fields[name]);
        return null;
      }
    });
    if (!answer) return;
    form.reset(settingsOf(answer));
    workspaceChanged(answer);
    onSaved();
    setSaved(t('settings.saved'));
  });
  const busy = pending || form.submitting;

  return (
    <form class="card stack" onSubmit={form.submit} noValidate aria-label={t('settings.title')}>
      {inputs().map(({ name, ...input }) => (
        <Field key={name} {...input} {...form.field(name)} />
      ))}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || !form.dirty}>
          {t(busy ? 'action.saving' : 'action.save')}
        </button>
      </div>
      <Notice error={error} done={saved} />
    </form>
  );
}
