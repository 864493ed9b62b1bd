import type { Client, FileAccessPolicy, FileObject } from '@parley/client';
import { ResourceNotFoundError } from '@parley/client';
import pLimit from 'p-limit';
import { describeError } from './connection.js';
import { type PlannedFile, sha256Of } from './upload-plan.js';

/** Where one file is: in flight (`hashing` … `indexing`) or done (`indexed`, `uploaded`, `unchanged`, `failed`). */
export type FileState =
  | 'queued'
  | 'hashing'
  | 'uploading'
  | 'indexing'
  | 'indexed'
  | 'uploaded'
  | 'unchanged'
  | 'failed';

/** States a file ends in. */
export const DONE_STATES: readonly FileState[] = ['indexed', 'uploaded', 'unchanged', 'failed'];

/** What happened to one file (the `--json` report holds one per file). */
export interface FileReport {
  path: string;
  key: string;
  size: number;
  state: FileState;
  sha256?: string;
  /** The file's id on the bot, once known. */
  id?: string;
  /** The file's status on the server as last read. */
  status?: FileObject['status'];
  /** Why it failed. */
  error?: string;
  /** Bytes sent so far. */
  sent: number;
  /** Passages indexed of total, while indexing runs. */
  indexing?: { done: number; total: number };
  /** Seconds from its start to its end state. */
  seconds?: number;
}

/** How an upload runs. */
export interface UploadSettings {
  tags: Record<string, string>;
  accessPolicies: FileAccessPolicy[] | undefined;
  /** Knowledge base id to link every file to. */
  knowledgeBaseId: string | undefined;
  /** Files uploading at once. */
  concurrency: number;
  /** Index the files (else they are stored only). */
  index: boolean;
  /** Wait for indexing to end (else a file is done once uploaded). */
  wait: boolean;
  /** Longest wait for one file's indexing, from its upload's end. */
  indexTimeoutMs: number;
  /** Pause between two reads of the files being indexed. */
  pollMs: number;
}

/** Told of every change, for the display. */
export interface UploadListener {
  changed(file: FileReport): void;
}

const FINISHED_INDEXING = new Set(['indexing_completed', 'indexing_failed', 'upload_failed']);

/** True when the stored file already holds these bytes and settings, so there is nothing to send. */
function unchanged(file: FileObject, sha256: string, settings: UploadSettings): boolean {
  if (file.checksum !== sha256) return false;
  if (file.status === 'upload_failed' || file.status === 'indexing_failed') return false;
  if (settings.index && !file.index) return false;
  return true;
}

/** Tags and access policies a stored file lacks compared with the ones asked for. */
function metadataChanges(file: FileObject, settings: UploadSettings) {
  const tags = Object.fromEntries(Object.entries(settings.tags).filter(([k, v]) => file.tags[k] !== v));
  const policies = settings.accessPolicies;
  const policiesDiffer =
    policies !== undefined &&
    (policies.length !== file.accessPolicies.length ||
      policies.some((p) => !file.accessPolicies.includes(p)));
  if (Object.keys(tags).length === 0 && !policiesDiffer) return undefined;
  return { tags, ...(policiesDiffer ? { accessPolicies: policies } : {}) };
}

/**
 * Reads the files being indexed together (`listFiles` by ids, 50 a call) every `pollMs`, and settles each
 * one's wait when it reaches an end state or its deadline.
 */
class IndexWatch {
  readonly #waiting = new Map<
    string,
    { report: FileReport; deadline: number; done: () => void; update: (f: FileObject) => void }
  >();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: Client,
    private readonly settings: UploadSettings,
  ) {}

  /** Resolves once the file is indexed, failed or timed out (the report says which). */
  wait(report: FileReport, update: (file: FileObject) => void): Promise<void> {
    return new Promise((done) => {
      this.#waiting.set(report.id as string, {
        report,
        deadline: Date.now() + this.settings.indexTimeoutMs,
        done,
        update,
      });
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#timer === undefined && this.#waiting.size > 0)
      this.#timer = setTimeout(() => void this.#poll(), this.settings.pollMs);
  }

  async #poll(): Promise<void> {
    const ids = [...this.#waiting.keys()];
    for (let i = 0; i < ids.length; i += 50) {
      const chunk = ids.slice(i, i + 50);
      let files: FileObject[] = [];
      let read = false;
      try {
        files = (await this.client.listFiles({ ids: chunk, pageSize: 50 })).files;
        read = true;
      } catch {
        // A failed read (after the client's retries) is read again next time; the deadline still holds.
      }
      const seen = new Set(files.map((f) => f.id));
      for (const file of files) this.#waiting.get(file.id)?.update(file);
      const now = Date.now();
      for (const id of chunk) {
        const entry = this.#waiting.get(id);
        if (!entry) continue;
        const { report } = entry;
        let finished = report.status !== undefined && FINISHED_INDEXING.has(report.status);
        if (read && !seen.has(id)) {
          report.error = 'the file was deleted while it was being indexed';
          finished = true;
        } else if (!finished && now > entry.deadline) {
          report.error = `still ${report.status} after ${Math.round(this.settings.indexTimeoutMs / 1000)} s (--index-timeout)`;
          finished = true;
        }
        if (finished) {
          this.#waiting.delete(id);
          entry.done();
        }
      }
    }
    this.#timer = undefined;
    this.#schedule();
  }

  stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

/**
 * The bot's files under the planned keys' common prefix, read a page of 100 at a time, at most one page
 * more than the planned files fill: `complete` when that was every such file (then a key not found is new,
 * and needs no `getFile` of its own), else the files seen so far.
 */
async function existingFiles(
  client: Client,
  planned: PlannedFile[],
): Promise<{ files: Map<string, FileObject>; complete: boolean }> {
  const keys = planned.map((f) => f.key).sort();
  const first = keys[0] ?? '';
  const last = keys.at(-1) ?? '';
  let common = 0;
  while (common < first.length && first[common] === last[common]) common += 1;
  const prefix = first.slice(0, common);
  const files = new Map<string, FileObject>();
  const pages = Math.ceil(planned.length / 100) + 1;
  let next: string | undefined;
  let read = 0;
  do {
    const page = await client.listFiles({
      pageSize: 100,
      ...(prefix ? { keyContains: prefix } : {}),
      ...(next ? { nextToken: next } : {}),
    });
    for (const f of page.files) if (f.key.startsWith(prefix)) files.set(f.key, f);
    next = page.meta.nextToken;
    read += 1;
  } while (next && read < pages);
  return { files, complete: next === undefined };
}

/**
 * Uploads the planned files to the client's bot, `concurrency` at a time: each is hashed, skipped when the
 * bot already holds a file with its key and sha256 (the bot's files are listed once up front, see
 * `existingFiles`) (its tags and policies are updated when they differ),
 * else uploaded (the client retries network errors, timeouts, 429 and 5xx), linked to the knowledge base,
 * and followed until indexed. A failure of one file never stops the others. `storedMs`: from the start
 * until every file was stored (or skipped, or failed) — before the wait for indexing.
 */
export async function runUpload(
  client: Client,
  planned: PlannedFile[],
  settings: UploadSettings,
  listener: UploadListener,
): Promise<{ reports: FileReport[]; storedMs: number }> {
  const begun = Date.now();
  let storedMs = 0;
  const reports: FileReport[] = planned.map((f) => ({
    path: f.path,
    key: f.key,
    size: f.size,
    state: 'queued',
    sent: 0,
  }));
  const watch = new IndexWatch(client, settings);
  const limit = pLimit(settings.concurrency);
  const waits: Promise<void>[] = [];

  const set = (report: FileReport, change: Partial<FileReport>) => {
    Object.assign(report, change);
    listener.changed(report);
  };
  const observe = (report: FileReport, file: FileObject) => {
    report.id = file.id;
    report.status = file.status;
    if (file.indexingProgress) report.indexing = { ...file.indexingProgress };
    if (file.status === 'indexing_failed' || file.status === 'upload_failed')
      report.error = file.failedStatusReason ? `${file.status}: ${file.failedStatusReason}` : file.status;
  };

  const finish = (report: FileReport, started: number, state: FileState) =>
    set(report, { state, seconds: (Date.now() - started) / 1000 });

  async function one(report: FileReport): Promise<void> {
    const started = Date.now();
    try {
      set(report, { state: 'hashing' });
      const sha256 = await sha256Of(report.path);
      report.sha256 = sha256;
      let existing: FileObject | undefined = known.files.get(report.key);
      if (!existing && !known.complete) {
        try {
          existing = (await client.getFile({ id: report.key })).file;
        } catch (error) {
          if (!(error instanceof ResourceNotFoundError)) throw error;
        }
      }
      if (existing && unchanged(existing, sha256, settings)) {
        observe(report, existing);
        const changes = metadataChanges(existing, settings);
        if (changes) observe(report, (await client.updateFileMetadata({ id: existing.id, ...changes })).file);
        if (settings.knowledgeBaseId)
          await client.linkKnowledgeBaseFile({ id: settings.knowledgeBaseId, fileId: existing.id });
        finish(report, started, 'unchanged');
        return;
      }
      set(report, { state: 'uploading' });
      const file = await client.uploadFile({
        key: report.key,
        path: report.path,
        index: settings.index,
        ...(Object.keys(settings.tags).length > 0 ? { tags: settings.tags } : {}),
        ...(settings.accessPolicies ? { accessPolicies: settings.accessPolicies } : {}),
        onProgress: ({ loaded }) => set(report, { sent: loaded }),
      });
      observe(report, file);
      if (file.checksum !== undefined && file.checksum !== sha256)
        throw new Error(
          `the server stored sha256 ${file.checksum}, the file on disk has ${sha256} (changed while uploading?)`,
        );
      if (settings.knowledgeBaseId)
        await client.linkKnowledgeBaseFile({ id: settings.knowledgeBaseId, fileId: file.id });
      if (!settings.index || !settings.wait) {
        finish(report, started, 'uploaded');
        return;
      }
      set(report, { state: 'indexing' });
      // The wait runs outside the upload slots: the next file uploads while this one is indexed.
      waits.push(
        watch
          .wait(report, (f) => {
            observe(report, f);
            listener.changed(report);
          })
          .then(() => {
            if (report.status === 'indexing_completed' && report.error === undefined)
              finish(report, started, 'indexed');
            else {
              report.error ??= `${report.status}`;
              finish(report, started, 'failed');
            }
          }),
      );
    } catch (error) {
      report.error = describeError(error);
      finish(report, started, 'failed');
    }
  }

  const known = await existingFiles(client, planned);
  try {
    await Promise.all(reports.map((report) => limit(() => one(report))));
    storedMs = Date.now() - begun;
    // Waits are pushed while uploads run; every upload has ended here, so the list is complete.
    await Promise.all(waits);
  } finally {
    watch.stop();
  }
  return { reports, storedMs };
}
