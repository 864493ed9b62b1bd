import type { Client, FileObject } from '@parley/client';
import { useAction } from '../../hooks.js';
import { t } from '../../i18n.js';
import { CopyField } from '../copy-field.js';
import { Notice } from '../notice.js';
import { CardSection } from './card-section.js';

type Props = { file: FileObject; files: Client; mayChange: boolean; onChanged(): void };

/**
 * Who may download a file: only through the Console and the APIs (private), or anyone with its permanent
 * URL (public, the `public_content` access policy), shown with a Copy button.
 */
export function FileAccess({ file, files, mayChange, onChanged }: Props) {
  const { pending, error, run } = useAction();
  const isPublic = file.accessPolicies.includes('public_content');
  async function setPublic(makePublic: boolean) {
    const others = file.accessPolicies.filter((p) => p !== 'public_content');
    const accessPolicies = makePublic ? [...others, 'public_content' as const] : others;
    if (await run(() => files.updateFileMetadata({ id: file.id, accessPolicies }))) onChanged();
  }
  return (
    <CardSection id="file-access-title" title={t('file.access')}>
      {isPublic ? (
        <>
          <p>{t('file.publicLead')}</p>
          <CopyField
            id="public-url"
            label={t('file.permanentUrl')}
            copyLabel={t('file.copyUrl')}
            value={file.url}
            noun={t('action.copyNounUrl')}
          />
        </>
      ) : (
        <p>{t('file.privateLead')}</p>
      )}
      {mayChange ? (
        <div class="actions">
          <button type="button" onClick={() => setPublic(!isPublic)} disabled={pending}>
            {isPublic ? t('file.makePrivate') : t('file.makePublic')}
          </button>
        </div>
      ) : null}
      <Notice error={error} />
    </CardSection>
  );
}
