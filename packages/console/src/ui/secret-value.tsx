import { t } from '../i18n.js';
import { CopyField } from './copy-field.js';

/**
 * A secret just created, in a read-only labelled field with a button that copies it; the answer that carries
 * it is the only time the server gives it, so the words say so.
 */
export function SecretValue({
  id,
  label,
  copyLabel,
  value,
}: {
  id: string;
  /** The field's label, e.g. "New token". */
  label: string;
  /** The copy button's words, e.g. "Copy token". */
  copyLabel: string;
  value: string;
}) {
  return (
    <CopyField
      id={id}
      class="secret-value"
      label={label}
      value={value}
      copyLabel={copyLabel}
      noun={t('action.copyNounValue')}
      hint={t('tokens.secretHint')}
    />
  );
}
