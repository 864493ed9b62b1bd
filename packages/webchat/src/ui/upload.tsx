import { format } from '../i18n.js';
import type { UiState } from '../store.js';
import { useTexts } from './texts.js';

/** The file being uploaded: its name and a progress bar. */
export function UploadProgress({ upload }: { upload: NonNullable<UiState['upload']> }) {
  const s = useTexts();
  const uploading = format(s.uploading, { name: upload.name });
  return (
    <div class="pw-upload" role="status">
      <span>{uploading}</span>
      <progress aria-label={uploading} max={upload.total || 1} value={upload.loaded} />
    </div>
  );
}
