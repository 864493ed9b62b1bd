import type { Client } from '@parley/client';
import { useCallback, useRef, useState } from 'preact/hooks';
import { describeError } from '../../api.js';
import { t } from '../../i18n.js';

/** One file being sent from this page: how far its bytes went, and how it ended. */
export interface Upload {
  /** This page's own id of the upload (a file may be dropped twice). */
  id: number;
  name: string;
  size: number;
  /** Bytes sent so far. */
  loaded: number;
  state: 'waiting' | 'uploading' | 'uploaded' | 'failed';
  /** Why it failed, in words. */
  error?: string | undefined;
  /** The file's id once its record exists. */
  fileId?: string | undefined;
}

/** Uploads sent at once; the others wait their turn. */
const AT_ONCE = 3;

/** The message of an upload URL's JSON error answer, or a sentence naming its status. */
function uploadFailure(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // Not JSON: fall through to the status.
  }
  return xhr.status === 0 ? t('upload.interrupted') : t('upload.refused', { status: xhr.status });
}

/**
 * PUTs `file` to an upload URL with XMLHttpRequest, whose upload progress events (which `fetch` lacks)
 * report the bytes sent; resolves when Parley has stored them, rejects with the reason in words.
 */
function putWithProgress(url: string, file: File, onProgress: (loaded: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(uploadFailure(xhr))));
    xhr.onerror = () => reject(new Error(uploadFailure(xhr)));
    xhr.onabort = () => reject(new Error(t('upload.cancelled')));
    xhr.send(file);
  });
}

/**
 * Uploads dropped into a knowledge base: each file's record is upserted (key = its name, indexed), linked
 * to the knowledge base (so it is listed there at once and indexed once its bytes arrive), then its bytes
 * are PUT to the upload URL with progress. `changed` is called when a file joins or finishes, so the
 * page reloads what it shows.
 */
export function useUploads(files: Client, knowledgeBaseId: string, changed: () => void) {
  const [uploads, setUploads] = useState<Upload[]>([]);
  const next = useRef(1);
  const queue = useRef<{ upload: Upload; file: File }[]>([]);
  const running = useRef(0);
  const latest = useRef(changed);
  latest.current = changed;

  const update = useCallback((id: number, change: Partial<Upload>) => {
    setUploads((all) => all.map((u) => (u.id === id ? { ...u, ...change } : u)));
  }, []);

  const send = useCallback(
    async ({ upload, file }: { upload: Upload; file: File }) => {
      update(upload.id, { state: 'uploading' });
      try {
        const { file: record } = await files.upsertFile({
          key: file.name,
          size: file.size,
          index: true,
          ...(file.type ? { contentType: file.type } : {}),
        });
        update(upload.id, { fileId: record.id });
        await files.linkKnowledgeBaseFile({ id: knowledgeBaseId, fileId: record.id });
        latest.current();
        await putWithProgress(record.uploadUrl, file, (loaded) => update(upload.id, { loaded }));
        update(upload.id, { state: 'uploaded', loaded: file.size });
      } catch (error) {
        update(upload.id, { state: 'failed', error: describeError(error) });
      }
      latest.current();
    },
    [files, knowledgeBaseId, update],
  );

  const pump = useCallback(() => {
    while (running.current < AT_ONCE && queue.current.length > 0) {
      const job = queue.current.shift();
      if (!job) break;
      running.current += 1;
      void send(job).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }, [send]);

  const add = useCallback(
    (list: Iterable<File>) => {
      const jobs = [...list].map((file) => ({
        file,
        upload: {
          id: next.current++,
          name: file.name,
          size: file.size,
          loaded: 0,
          state: 'waiting' as const,
        },
      }));
      if (jobs.length === 0) return;
      setUploads((all) => [...jobs.map((j) => j.upload), ...all]);
      queue.current.push(...jobs);
      pump();
    },
    [pump],
  );

  const clearFinished = useCallback(() => {
    setUploads((all) => all.filter((u) => u.state === 'waiting' || u.state === 'uploading'));
  }, []);

  return { uploads, add, clearFinished };
}
