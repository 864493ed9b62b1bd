import type { Client, FileObject } from '@parley/client';
import { useRef, useState } from 'preact/hooks';
import { useAction } from '../../hooks.js';
import { Notice } from '../notice.js';

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
    <section class="card stack" aria-labelledby="file-access-title">
      <h3 id="file-access-title" class="kn-h">
        Access
      </h3>
      {isPublic ? (
        <>
          <p>Public: anyone with this permanent URL can download the file.</p>
          <CopyUrl url={file.url} />
        </>
      ) : (
        <p>
          Private: downloads go through short-lived signed links handed out to people and keys allowed to read
          it.
        </p>
      )}
      {mayChange ? (
        <div class="actions">
          <button type="button" onClick={() => setPublic(!isPublic)} disabled={pending}>
            {isPublic ? 'Make private' : 'Make public'}
          </button>
        </div>
      ) : null}
      <Notice error={error} />
    </section>
  );
}

function CopyUrl({ url }: { url: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<string | undefined>(undefined);
  const [failed, setFailed] = useState<string | undefined>(undefined);
  async function copy() {
    setCopied(undefined);
    setFailed(undefined);
    try {
      await navigator.clipboard.writeText(url);
      setCopied('Copied.');
    } catch {
      input.current?.select();
      setFailed('This browser did not allow copying: the URL is selected, copy it with your keyboard.');
    }
  }
  return (
    <div class="inline-form">
      <div class="field">
        <label for="public-url">Permanent URL</label>
        <input id="public-url" type="text" readOnly value={url} ref={input} spellcheck={false} />
      </div>
      <button type="button" onClick={copy}>
        Copy URL
      </button>
      <Notice error={failed} done={copied} />
    </div>
  );
}
