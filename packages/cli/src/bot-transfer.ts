import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, FileObject, WebchatConfiguration } from '@parley/client';
import { CommandFailure } from '@parley/server/cli';
import { extractTar, writePrivateTar } from '@parley/server/cli/private-tar';
import pLimit from 'p-limit';
import { saveTo } from './download.js';

/**
 * One file of an exported bot: its record's fields as the Files API answers them (its size once uploaded) and
 * where its bytes (and passages) are in the archive.
 */
export type ExportedFile = Pick<
  FileObject,
  | 'id'
  | 'key'
  | 'contentType'
  | 'tags'
  | 'metadata'
  | 'accessPolicies'
  | 'index'
  | 'expiresAt'
  | 'checksum'
  | 'status'
> & {
  size: number;
  /** Path of the bytes in the archive. */
  bytes: string;
  /** Path of the passages (content, subtype, page) in the archive, for an indexed file. */
  passages?: string;
};

/** `bot.json` at the top of an export archive. */
export interface BotExport {
  format: 'parley-bot';
  version: 1;
  exportedAt: string;
  source: { apiUrl: string; botId: string };
  bot: {
    name: string;
    description: string;
    dev: boolean;
    tags: Record<string, string>;
    replyMode: unknown;
    /** Which sources its answers link (absent in exports made before the setting: the default then). */
    sourceLinks?: unknown;
    /** Its own reply texts (absent in exports made before them: the defaults then). */
    replies?: unknown;
  };
  webchat: WebchatConfiguration;
  knowledgeBases: Array<{ id: string; name: string; tags: Record<string, string>; fileIds: string[] }>;
  files: ExportedFile[];
  /** The bot's Q&A entries (absent in exports made before them). */
  qaEntries?: Array<{
    questions: string[];
    answer: string;
    tags: Record<string, string>;
    enabled: boolean;
    knowledgeBaseId?: string;
  }>;
  /** Files left out (no bytes stored yet). */
  skipped: Array<{ key: string; status: string }>;
}

type Passage = { content: string; meta?: { subtype?: string; pageNumber?: number } };

/**
 * Writes a bot's settings, webchat configuration, knowledge bases and files (bytes checked against their
 * sha256, tags, metadata, policies, links, and the passages of indexed files) to a .tar.gz, over the API.
 */
export async function exportBot(client: Client, botId: string, output: string): Promise<BotExport> {
  const stage = await mkdtemp(join(tmpdir(), 'parley-export-'));
  try {
    const { bot } = await client.getBot({ id: botId });
    const { configuration } = await client.getBotWebchat({ id: botId });
    const files = await client.list
      .files({ pageSize: 100, sortField: 'key', sortDirection: 'asc' })
      .collect();
    const kbs = await client.list.knowledgeBases({ pageSize: 100 }).collect();
    const knowledgeBases = [];
    for (const kb of kbs) {
      const linked = await client.listKnowledgeBaseFiles({ id: kb.id });
      knowledgeBases.push({
        id: kb.id,
        name: kb.name,
        tags: kb.tags,
        fileIds: linked.files.map((f) => f.fileId),
      });
    }
    await mkdir(join(stage, 'files'), { mode: 0o700 });
    await mkdir(join(stage, 'passages'), { mode: 0o700 });
    const exported: ExportedFile[] = [];
    const skipped: BotExport['skipped'] = [];
    const limit = pLimit(4);
    await Promise.all(
      files.map((file, n) =>
        limit(async () => {
          if (file.size === null) {
            skipped.push({ key: file.key, status: file.status });
            return;
          }
          const bytes = `files/${n}`;
          const saved = await saveTo(client, file.id, join(stage, bytes));
          const entry: ExportedFile = {
            id: file.id,
            key: file.key,
            contentType: saved.contentType,
            tags: saved.tags,
            metadata: saved.metadata,
            accessPolicies: saved.accessPolicies,
            index: saved.index,
            ...(saved.expiresAt ? { expiresAt: saved.expiresAt } : {}),
            size: saved.size ?? 0,
            ...(saved.checksum ? { checksum: saved.checksum } : {}),
            status: saved.status,
            bytes,
          };
          if (saved.status === 'indexing_completed') {
            const passages = await client.list.filePassages({ id: file.id, limit: 200 }).collect();
            const carried: Passage[] = passages.map((p) => ({
              content: p.content,
              meta: {
                ...(p.meta.subtype ? { subtype: p.meta.subtype } : {}),
                ...(p.meta.pageNumber ? { pageNumber: p.meta.pageNumber } : {}),
              },
            }));
            entry.passages = `passages/${n}.json`;
            await writeFile(join(stage, entry.passages), JSON.stringify(carried), { mode: 0o600 });
          }
          exported.push(entry);
        }),
      ),
    );
    exported.sort((a, b) => a.key.localeCompare(b.key));
    const qaEntries = (await client.listQaEntries({ id: botId, pageSize: 100 }).collect()).map((e) => ({
      questions: e.questions,
      answer: e.answer,
      tags: e.tags,
      enabled: e.enabled,
      ...(e.knowledgeBaseId ? { knowledgeBaseId: e.knowledgeBaseId } : {}),
    }));
    const manifest: BotExport = {
      format: 'parley-bot',
      version: 1,
      exportedAt: new Date().toISOString(),
      source: { apiUrl: client.apiUrl, botId },
      bot: {
        name: bot.name,
        description: bot.description,
        dev: bot.dev,
        tags: bot.tags,
        replyMode: bot.replyMode,
        sourceLinks: bot.sourceLinks,
        replies: bot.replies,
      },
      webchat: configuration,
      knowledgeBases,
      files: exported,
      qaEntries,
      skipped,
    };
    await writeFile(join(stage, 'bot.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    await writePrivateTar(stage, ['bot.json', 'files', 'passages'], output);
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** What an import made: the new bot and the ids of the old bot's knowledge bases and files on it. */
export interface BotImport {
  botId: string;
  knowledgeBases: Record<string, string>;
  files: Record<string, string>;
  /** Files whose passages were carried (not extracted again). */
  carried: number;
  /** Q&A entries added to the new bot. */
  qaEntries: number;
}

/**
 * Creates a bot in the client's workspace from an export archive: settings, webchat configuration, files
 * (bytes, tags, metadata, policies, expiry), knowledge bases and their links, with new ids. Files are indexed
 * again from their bytes, or with `carryPassages` the exported passages are set as the file's own (no
 * extraction; the target embeds them with its model).
 */
export async function importBot(
  client: Client,
  archive: string,
  options: { name?: string | undefined; carryPassages: boolean },
): Promise<BotImport> {
  const stage = await mkdtemp(join(tmpdir(), 'parley-import-'));
  try {
    try {
      await extractTar(archive, stage, (path) =>
        /^(bot\.json|files(\/\d+)?\/?|passages(\/\d+\.json)?\/?)$/.test(path),
      );
    } catch (error) {
      throw new CommandFailure(`${archive} is not a readable .tar.gz: ${(error as Error).message}`);
    }
    let manifest: BotExport;
    try {
      manifest = JSON.parse(await readFile(join(stage, 'bot.json'), 'utf8')) as BotExport;
    } catch {
      throw new CommandFailure(
        `${archive} is not a Parley bot export (no bot.json); parley bots export writes one`,
      );
    }
    if (manifest.format !== 'parley-bot') throw new CommandFailure(`${archive} is not a Parley bot export`);
    const { bot } = await client.createBot({
      name: options.name ?? manifest.bot.name,
      description: manifest.bot.description,
      dev: manifest.bot.dev,
      tags: manifest.bot.tags,
      ...(manifest.bot.replyMode ? { replyMode: manifest.bot.replyMode as never } : {}),
      ...(manifest.bot.sourceLinks ? { sourceLinks: manifest.bot.sourceLinks as never } : {}),
      ...(manifest.bot.replies ? { replies: manifest.bot.replies as never } : {}),
    });
    await client.updateBotWebchat({ id: bot.id, configuration: manifest.webchat });
    const onBot = client.with({ botId: bot.id });
    const files: Record<string, string> = {};
    let carried = 0;
    const limit = pLimit(4);
    const now = Date.now();
    await Promise.all(
      manifest.files.map((f) =>
        limit(async () => {
          const passages = options.carryPassages && f.passages ? f.passages : undefined;
          const file = await onBot.uploadFile({
            key: f.key,
            path: join(stage, f.bytes),
            contentType: f.contentType,
            tags: f.tags,
            metadata: f.metadata,
            accessPolicies: f.accessPolicies,
            index: passages ? false : f.index,
            ...(f.expiresAt && Date.parse(f.expiresAt) > now ? { expiresAt: f.expiresAt } : {}),
          });
          if (f.checksum && file.checksum && file.checksum !== f.checksum)
            throw new CommandFailure(`${f.key}: the archive's bytes do not match their sha256`);
          if (passages) {
            const list = JSON.parse(await readFile(join(stage, passages), 'utf8')) as Passage[];
            if (list.length > 0) {
              await onBot.setFilePassages({ id: file.id, passages: list as never });
              carried += 1;
            }
          }
          files[f.id] = file.id;
        }),
      ),
    );
    const knowledgeBases: Record<string, string> = {};
    for (const kb of manifest.knowledgeBases) {
      const { knowledgeBase } = await onBot.createKnowledgeBase({ name: kb.name, tags: kb.tags });
      knowledgeBases[kb.id] = knowledgeBase.id;
      for (const old of kb.fileIds) {
        const fileId = files[old];
        if (fileId) await onBot.linkKnowledgeBaseFile({ id: knowledgeBase.id, fileId });
      }
    }
    for (const entry of manifest.qaEntries ?? []) {
      const { knowledgeBaseId, ...fields } = entry;
      const kb = knowledgeBaseId ? knowledgeBases[knowledgeBaseId] : undefined;
      await client.createQaEntry({ id: bot.id, ...fields, ...(kb ? { knowledgeBaseId: kb } : {}) });
    }
    return { botId: bot.id, knowledgeBases, files, carried, qaEntries: manifest.qaEntries?.length ?? 0 };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}
