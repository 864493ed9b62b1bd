// Data for the Console benchmark: many file rows for one bot, written straight into a Parley database (no blob,
// no passages: what a files table lists, in one transaction instead of 10,000 or more Files API requests),
// more bots through the Admin API, and the owner's session cookie.
import { openDatabase } from '@parley/server/dist/db/database.js';
import { seededRandom } from '../../packages/testkit/src/shared/random.js';

/** Where the files go: the bot (and its workspace) and, when given, a knowledge base they are linked to. */
export interface SeedTarget {
  dataDir: string;
  botId: string;
  workspaceId: string;
  knowledgeBaseId?: string;
}

const FOLDERS = ['handbook', 'faq', 'policies', 'products', 'support', 'legal', 'releases', 'guides'];
const TYPES: Array<[string, string]> = [
  ['md', 'text/markdown'],
  ['pdf', 'application/pdf'],
  ['docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['txt', 'text/plain'],
];
// Mostly indexed, as a knowledge base in use; a few of the other states a table filters on.
const STATUSES = [
  'indexing_completed',
  'indexing_completed',
  'indexing_completed',
  'indexing_failed',
  'upload_pending',
];
const BATCH = 500;

/**
 * Inserts `count` files into the SQLite database of `dataDir` (the server must not be running), in one
 * transaction: keys `<folder>/<folder>-<n>.<ext>`, sizes of 1 kB to 2 MB, a mix of states, one tag
 * (`topic`) each, created a minute apart (so sorting by date is meaningful). Answers the milliseconds it took.
 */
export async function seedFiles(target: SeedTarget, count: number, seed = 12): Promise<number> {
  const started = performance.now();
  const random = seededRandom(seed);
  const db = await openDatabase({ dataDir: target.dataDir });
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  try {
    await db.kysely.transaction().execute(async (tx) => {
      for (let from = 0; from < count; from += BATCH) {
        const files = [];
        const tags = [];
        const links = [];
        for (let i = from; i < Math.min(count, from + BATCH); i++) {
          const folder = FOLDERS[i % FOLDERS.length] as string;
          const [ext, contentType] = TYPES[i % TYPES.length] as [string, string];
          const id = `file_bench${String(i).padStart(6, '0')}`;
          const at = new Date(base + i * 60_000).toISOString();
          const status = STATUSES[Math.floor(random() * STATUSES.length)] as string;
          const size = 1000 + Math.floor(random() * 2_000_000);
          files.push({
            id,
            bot_id: target.botId,
            workspace_id: target.workspaceId,
            key: `${folder}/${folder}-${i}.${ext}`,
            content_type: contentType,
            size: status === 'upload_pending' ? null : size,
            declared_size: size,
            sha256: null,
            metadata: '{}',
            access_policies: '[]',
            index: 1,
            indexing_configuration: null,
            status,
            failed_status_reason: status === 'indexing_failed' ? 'The PDF has no text layer.' : null,
            expires_at: null,
            owner_type: 'bot',
            owner_id: null,
            blob_key: null,
            blob_content_type: null,
            blob_access_policies: null,
            upload_version: 1,
            indexing_done: 0,
            indexing_total: 0,
            created_at: at,
            updated_at: at,
          });
          tags.push({ file_id: id, key: 'topic', value: folder });
          if (target.knowledgeBaseId)
            links.push({ knowledge_base_id: target.knowledgeBaseId, file_id: id, linked_at: at });
        }
        await tx.insertInto('files').values(files).execute();
        await tx.insertInto('file_tags').values(tags).execute();
        if (links.length > 0) await tx.insertInto('knowledge_base_files').values(links).execute();
      }
    });
  } finally {
    await db.close();
  }
  return performance.now() - started;
}

/** `count` more bots in the workspace (Admin API, as the owner), so the Bots page lists a workspace's worth. */
export async function createBots(url: string, boot: { token: string; workspaceId: string }, count: number) {
  const headers = {
    authorization: `Bearer ${boot.token}`,
    'x-workspace-id': boot.workspaceId,
    'content-type': 'application/json',
  };
  for (let from = 0; from < count; from += 10) {
    await Promise.all(
      Array.from({ length: Math.min(10, count - from) }, async (_, i) => {
        const res = await fetch(`${url}/v1/admin/bots`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ name: `Bench bot ${from + i + 1}` }),
        });
        if (!res.ok) throw new Error(`createBot answered ${res.status}: ${await res.text()}`);
      }),
    );
  }
}

/** The owner's session cookie, from signing in with the bootstrap password (as the Sign in page does). */
export async function signIn(server: { url: string }, email: string, password: string): Promise<string> {
  const res = await fetch(`${server.url}/v1/admin/account/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url },
    body: JSON.stringify({ email, password }),
  });
  const cookie = /parley_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!res.ok || !cookie) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return cookie;
}
