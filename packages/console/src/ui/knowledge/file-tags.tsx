import type { Client, FileObject } from '@parley/client';
import { useState } from 'preact/hooks';
import { useForm } from '../../form.js';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { Field } from '../field.js';
import { Notice } from '../notice.js';
import { CardSection } from './card-section.js';

type Props = { file: FileObject; files: Client; mayChange: boolean; onChanged(): void };

/** A file's tags (key=value, rendered as text): add one, remove one, saved through the Files API. */
export function FileTags({ file, files, mayChange, onChanged }: Props) {
  const { pending, error, run } = useAction();
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const form = useForm(
    { key: '', value: '' },
    async ({ key, value }) => {
      setNotice(undefined);
      const answer = await run(() =>
        files.updateFileMetadata({ id: file.id, tags: { [key.trim()]: value } }),
      );
      if (!answer) return;
      form.reset({ key: '', value: '' });
      onChanged();
      setNotice(t('file.tagSaved', { key: key.trim() }));
    },
    ({ key }) => (key.trim() === '' ? { key: t('file.tagKeyNeeded') } : undefined),
  );
  async function remove(key: string) {
    setNotice(undefined);
    if (await run(() => files.updateFileMetadata({ id: file.id, tags: { [key]: null } }))) {
      onChanged();
      setNotice(t('file.tagRemoved', { key }));
    }
  }
  const tags = Object.entries(file.tags);
  const key = form.field('key');
  const value = form.field('value');
  return (
    <CardSection id="file-tags-title" title={t('file.tags')}>
      {tags.length === 0 ? (
        <p class="muted">{mayChange ? t('file.noTagsMayAdd') : t('file.noTags')}</p>
      ) : (
        <ul class="tag-list" aria-label={t('file.tags')}>
          {tags.map(([k, v]) => (
            <li key={k} class="tag-chip">
              <span>
                {k}={v}
              </span>
              {mayChange ? (
                <button type="button" class="quiet" onClick={() => remove(k)} disabled={pending}>
                  {t('file.removeTag')}
                  <span class="visually-hidden">{t('file.removeTagOf', { key: k })}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {mayChange ? (
        <form class="tag-form" onSubmit={form.submit}>
          <Field
            id="tag-key"
            label={t('file.tagKey')}
            maxLength={100}
            value={key.value}
            onValue={key.onValue}
          />
          <Field id="tag-value" label={t('file.tagValue')} maxLength={1000} {...value} />
          <button type="submit" disabled={pending || key.value.trim() === ''}>
            {t('file.addTag')}
          </button>
          <Notice error={key.error ?? error} done={notice} />
        </form>
      ) : null}
    </CardSection>
  );
}
