import { readFile, writeFile } from 'node:fs/promises';
import type { BotQaEntry, BotQaEntryFields, Client } from '@parley/client';
import { type CommandContext, CommandFailure } from '@parley/server/cli';
import type { Command } from 'commander';
import { parse } from 'csv-parse/sync';
import { type ConnectionFlags, clientOf, describeError, remote, remoteOptions } from './connection.js';
import { collectTags, columns } from './text.js';

/** The columns of a Q&A CSV file (one entry per row; wordings one per line of their cell, tags `k=v;k=v`). */
export const QA_CSV_COLUMNS = ['id', 'questions', 'answer', 'tags', 'enabled'] as const;

interface JsonFlags extends ConnectionFlags {
  json?: boolean;
}

/** An entry as a file holds it: its fields, and the id it had where it was exported (to update it again). */
export type QaFileEntry = BotQaEntryFields & { id?: string | undefined };

/** A CSV cell: quoted when it holds a comma, a quote or a line break. */
const cell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Entries as CSV ({@link QA_CSV_COLUMNS}). */
export function qaToCsv(entries: BotQaEntry[]): string {
  const rows = entries.map((e) =>
    [
      e.id,
      e.questions.join('\n'),
      e.answer,
      Object.entries(e.tags)
        .map(([k, v]) => `${k}=${v}`)
        .join(';'),
      String(e.enabled),
    ]
      .map(cell)
      .join(','),
  );
  return `${[QA_CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

/** The tags of a CSV cell (`k=v;k=v`). */
function tagsOf(text: string): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const pair of text.split(';')) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`tag "${pair}" is not key=value`);
    tags[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return tags;
}

/** Entries read from a CSV file with a header row of {@link QA_CSV_COLUMNS} (`questions` and `answer` needed). */
export function qaFromCsv(text: string): QaFileEntry[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, bom: true }) as Array<
    Record<string, string | undefined>
  >;
  return rows.map((row) => ({
    ...(row.id?.trim() ? { id: row.id.trim() } : {}),
    questions: (row.questions ?? '').split(/\r?\n/).filter((q) => q.trim()),
    answer: row.answer ?? '',
    ...(row.tags?.trim() ? { tags: tagsOf(row.tags) } : {}),
    ...(row.enabled?.trim() ? { enabled: !/^(false|0|no)$/i.test(row.enabled.trim()) } : {}),
  }));
}

/** Entries read from JSON: `{entries: [...]}` (what `qa export` writes) or an array. */
export function qaFromJson(text: string): QaFileEntry[] {
  const value = JSON.parse(text) as unknown;
  const list = Array.isArray(value) ? value : (value as { entries?: unknown }).entries;
  if (!Array.isArray(list))
    throw new CommandFailure('The JSON file holds no entries (an array, or {"entries": [...]})');
  return list.map((raw) => {
    const e = raw as Partial<BotQaEntry>;
    return {
      ...(e.id ? { id: e.id } : {}),
      questions: e.questions ?? [],
      answer: e.answer ?? '',
      ...(e.tags ? { tags: e.tags } : {}),
      ...(e.enabled !== undefined ? { enabled: e.enabled } : {}),
    };
  });
}

/** `csv` or `json`: as asked, else by the file's extension (JSON unless it ends with .csv). */
function formatOf(flag: string | undefined, file: string | undefined): 'csv' | 'json' {
  const format = flag ?? (file?.toLowerCase().endsWith('.csv') ? 'csv' : 'json');
  if (format !== 'csv' && format !== 'json')
    throw new CommandFailure(`--format is csv or json, not "${format}"`);
  return format;
}

/** Every entry of the bot, oldest first. */
const allEntries = (client: Client, botId: string, search?: string) =>
  client.listQaEntries({ id: botId, pageSize: 100, ...(search ? { search } : {}) }).collect();

/** What an import did: entries added, updated, and those refused (with their position in the file and why). */
export interface QaImportSummary {
  added: number;
  updated: number;
  failed: Array<{ entry: number; message: string }>;
}

/**
 * Imports entries into a bot: an entry whose `id` is one of the bot's is replaced, any other is added (an id
 * from another bot or Parley is not kept). Each entry is one request, so one refused entry (a bad link, a blank
 * answer) leaves the others in; the summary says which.
 */
export async function importQa(
  client: Client,
  botId: string,
  entries: QaFileEntry[],
): Promise<QaImportSummary> {
  const existing = new Set((await allEntries(client, botId)).map((e) => e.id));
  const summary: QaImportSummary = { added: 0, updated: 0, failed: [] };
  for (const [i, { id, ...fields }] of entries.entries()) {
    try {
      if (id && existing.has(id)) {
        await client.updateQaEntry({ id: botId, entryId: id, ...fields });
        summary.updated++;
      } else {
        await client.createQaEntry({ id: botId, ...fields });
        summary.added++;
      }
    } catch (error) {
      summary.failed.push({ entry: i + 1, message: describeError(error) });
    }
  }
  return summary;
}

const collectQuestion = (value: string, previous: string[] = []) => [...previous, value];

/** `qa list|add|rm|import|export`: a bot's Q&A entries over HTTP. */
export function qaCommands(program: Command, ctx: CommandContext): void {
  const qa = program
    .command('qa')
    .description(
      "work on a bot's Q&A entries over HTTP (a running Parley: --url, --token, --workspace, --bot)",
    );

  remoteOptions(qa.command('list').description("list the bot's Q&A entries"))
    .option('--search <text>', 'only entries whose wordings, answer or tags hold the text')
    .option('--json', 'print JSON')
    .action(async (flags: JsonFlags & { search?: string }, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      const entries = await remote(() => allEntries(client, client.botId as string, flags.search));
      if (flags.json) {
        ctx.print({ entries });
        return;
      }
      const rows = [['ID', 'ENABLED', 'QUESTIONS', 'ANSWER']];
      const short = (text: string) => {
        const line = text.replace(/\s+/g, ' ').trim();
        return line.length > 60 ? `${line.slice(0, 59)}…` : line;
      };
      for (const e of entries)
        rows.push([
          e.id,
          e.enabled ? 'yes' : 'no',
          `${short(e.questions[0] ?? '')}${e.questions.length > 1 ? ` (+${e.questions.length - 1})` : ''}`,
          short(e.answer),
        ]);
      ctx.io.out(columns(rows));
    });

  remoteOptions(qa.command('add').description('add a Q&A entry'))
    .requiredOption('-q, --question <text>', 'a wording of the question (repeat for more)', collectQuestion)
    .requiredOption(
      '-a, --answer <markdown>',
      'the answer (Markdown; links to http(s), mailto: and tel: only)',
    )
    .option('--tags <key=value>', 'its tags (repeat, or comma-separate)', collectTags, {})
    .option('--disabled', 'add it disabled (the bot does not answer with it yet)')
    .option('--json', 'print JSON')
    .action(
      async (
        flags: JsonFlags & {
          question: string[];
          answer: string;
          tags: Record<string, string>;
          disabled?: boolean;
        },
        command: Command,
      ) => {
        const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
        const { entry } = await remote(() =>
          client.createQaEntry({
            id: client.botId as string,
            questions: flags.question,
            answer: flags.answer,
            ...(Object.keys(flags.tags).length > 0 ? { tags: flags.tags } : {}),
            ...(flags.disabled ? { enabled: false } : {}),
          }),
        );
        if (flags.json) ctx.print({ entry });
        else ctx.io.out(`added ${entry.id}: ${entry.questions.length} wording(s)\n`);
      },
    );

  remoteOptions(qa.command('rm').description('delete Q&A entries').argument('<entryIds...>', 'entry ids'))
    .option('--json', 'print JSON')
    .action(async (ids: string[], flags: JsonFlags, command: Command) => {
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      await remote(async () => {
        for (const entryId of ids) {
          await client.deleteQaEntry({ id: client.botId as string, entryId });
          if (!flags.json) ctx.io.out(`deleted ${entryId}\n`);
        }
      });
      if (flags.json) ctx.print({ deleted: ids });
    });

  remoteOptions(qa.command('export').description("write the bot's Q&A entries as CSV or JSON"))
    .option('-o, --output <file>', 'file to write (default: standard output)')
    .option('--format <format>', 'csv or json (default: by the file extension, else json)')
    .action(async (flags: ConnectionFlags & { output?: string; format?: string }, command: Command) => {
      const format = formatOf(flags.format, flags.output);
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      const entries = await remote(() => allEntries(client, client.botId as string));
      const text = format === 'csv' ? qaToCsv(entries) : `${JSON.stringify({ entries }, null, 2)}\n`;
      if (!flags.output) {
        ctx.io.out(text);
        return;
      }
      await writeFile(flags.output, text);
      ctx.io.out(`Exported ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} to ${flags.output}\n`);
    });

  remoteOptions(
    qa
      .command('import')
      .description(
        "add Q&A entries from a CSV (columns id, questions, answer, tags, enabled) or JSON file (what qa export writes); an entry whose id is one of the bot's is replaced",
      )
      .argument('<file>', 'the file'),
  )
    .option('--format <format>', 'csv or json (default: by the file extension, else json)')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, flags: JsonFlags & { format?: string }, command: Command) => {
      const format = formatOf(flags.format, file);
      const text = await readFile(file, 'utf8');
      let entries: QaFileEntry[];
      try {
        entries = format === 'csv' ? qaFromCsv(text) : qaFromJson(text);
      } catch (error) {
        if (error instanceof CommandFailure) throw error;
        throw new CommandFailure(
          `${file} is not a Q&A ${format.toUpperCase()} file: ${describeError(error)}`,
        );
      }
      const client = clientOf(command, flags, ctx.io, ['bot', 'workspace']);
      const summary = await remote(() => importQa(client, client.botId as string, entries));
      if (flags.json) ctx.print(summary);
      else {
        ctx.io.out(
          `Imported ${file}: ${summary.added} added, ${summary.updated} updated, ${summary.failed.length} failed\n`,
        );
        for (const f of summary.failed) ctx.io.out(`  entry ${f.entry}: ${f.message}\n`);
      }
      if (summary.failed.length > 0)
        throw new CommandFailure(`${summary.failed.length} of ${entries.length} entries were not imported`);
    });
}
