import { type CommandIo, formatBytes } from '@parley/server/cli';
import cliProgress from 'cli-progress';
import Table from 'cli-table3';
import { DONE_STATES, type FileReport, type FileState, type UploadListener } from './upload-run.js';

/** The totals of a run, for the summary and the `--json` report. */
export interface UploadSummary {
  files: number;
  bytes: number;
  /** Bytes actually sent (unchanged files send none). */
  sentBytes: number;
  indexed: number;
  uploaded: number;
  unchanged: number;
  failed: number;
  /** Seconds until every file was stored (uploaded, skipped or failed), before the wait for indexing. */
  storedSeconds: number;
  /** Seconds of the whole run. */
  seconds: number;
}

/** Counts the reports by end state. */
export function summarize(reports: FileReport[], storedSeconds: number, seconds: number): UploadSummary {
  const count = (state: FileState) => reports.filter((r) => r.state === state).length;
  return {
    files: reports.length,
    bytes: reports.reduce((n, r) => n + r.size, 0),
    sentBytes: reports.reduce((n, r) => n + r.sent, 0),
    indexed: count('indexed'),
    uploaded: count('uploaded'),
    unchanged: count('unchanged'),
    failed: count('failed'),
    storedSeconds,
    seconds,
  };
}

/** The end-of-run table: files and bytes by state, then each failed file with its reason. */
export function summaryTable(reports: FileReport[], summary: UploadSummary): string {
  // No colours: the table reads the same in a terminal, a log file and a CI page.
  const style = { head: [], border: [] };
  const table = new Table({
    head: ['result', 'files', 'bytes'],
    style,
    colAligns: ['left', 'right', 'right'],
  });
  for (const state of ['indexed', 'uploaded', 'unchanged', 'failed'] as const) {
    const files = reports.filter((r) => r.state === state);
    if (files.length > 0)
      table.push([state, files.length, formatBytes(files.reduce((n, r) => n + r.size, 0))]);
  }
  table.push(['total', summary.files, formatBytes(summary.bytes)]);
  const rate = summary.seconds > 0 ? (summary.files / summary.seconds).toFixed(1) : '–';
  let text = `${table.toString()}\n${formatBytes(summary.sentBytes)} sent in ${summary.storedSeconds.toFixed(1)} s; done in ${summary.seconds.toFixed(1)} s (${rate} files/s)\n`;
  const failed = reports.filter((r) => r.state === 'failed');
  if (failed.length > 0) {
    const errors = new Table({ head: ['failed file', 'reason'], style, colWidths: [40, 70], wordWrap: true });
    for (const r of failed) errors.push([r.key, r.error ?? 'failed']);
    text += `${errors.toString()}\n`;
  }
  return text;
}

/** A display of an upload run: told of every change, ended with the reports. */
export interface UploadDisplay extends UploadListener {
  end(reports: FileReport[], summary: UploadSummary): void;
}

const pad = (text: string, width: number) =>
  text.length > width ? `…${text.slice(text.length - width + 1)}` : text.padEnd(width);

/** One line per file that reaches an end state, then the summary table: for logs and pipes. */
export function plainDisplay(io: CommandIo, total: number): UploadDisplay {
  let done = 0;
  return {
    changed(file) {
      if (!DONE_STATES.includes(file.state)) return;
      done += 1;
      const detail =
        file.state === 'failed'
          ? (file.error ?? 'failed')
          : `${formatBytes(file.size)}${file.seconds !== undefined ? `, ${file.seconds.toFixed(1)} s` : ''}`;
      io.out(
        `[${String(done).padStart(String(total).length)}/${total}] ${file.state.padEnd(9)} ${file.key}  ${detail}\n`,
      );
    },
    end(reports, summary) {
      io.out(summaryTable(reports, summary));
    },
  };
}

/** Nothing while it runs; the `--json` report is printed at the end by the command. */
export function silentDisplay(): UploadDisplay {
  return { changed() {}, end() {} };
}

function fileLine(file: FileReport): string {
  switch (file.state) {
    case 'uploading':
      return `uploading ${file.size > 0 ? Math.floor((100 * file.sent) / file.size) : 100}%`;
    case 'indexing':
      return file.indexing && file.indexing.total > 0
        ? `indexing ${file.indexing.done}/${file.indexing.total} passages`
        : `indexing (${file.status ?? 'pending'})`;
    default:
      return file.state;
  }
}

/**
 * The live display on a terminal (cli-progress): an overall bar of bytes and files, one bar per file in
 * flight (uploading, then indexing) up to what the screen holds, and a line above the bars as each file ends.
 */
export function liveDisplay(
  terminal: NodeJS.WriteStream,
  planned: ReadonlyArray<{ key: string; size: number }>,
): UploadDisplay {
  const totalBytes = planned.reduce((n, r) => n + r.size, 0);
  // The latest report of each file told so far, by key.
  const latest = new Map<string, FileReport>();
  const reports = () => [...latest.values()];
  const rows = Math.max(3, (terminal.rows ?? 24) - 6);
  const width = Math.max(10, Math.min(30, (terminal.columns ?? 80) - 100));
  const multibar = new cliProgress.MultiBar({
    stream: terminal,
    hideCursor: true,
    gracefulExit: true,
    clearOnComplete: false,
    barsize: width,
    fps: 8,
  });
  const counts = () => {
    const all = reports();
    const by = (s: FileState) => all.filter((r) => r.state === s).length;
    const done = all.filter((r) => DONE_STATES.includes(r.state)).length;
    return `files ${done}/${planned.length}: ${by('indexing')} indexing, ${by('indexed')} indexed, ${by('unchanged')} unchanged, ${by('failed')} failed`;
  };
  const overall = multibar.create(
    Math.max(1, totalBytes),
    0,
    {},
    {
      format: (options, params) =>
        `${'total'.padEnd(24)} ${cliProgress.Format.BarFormat(params.progress, options)} ${formatBytes(params.value)}/${formatBytes(totalBytes)} · ${counts()}`,
    },
  );
  const bars = new Map<FileReport, cliProgress.SingleBar>();
  const barFormat =
    (file: FileReport): cliProgress.GenericFormatter =>
    (options, params) =>
      `${pad(file.key, 24)} ${cliProgress.Format.BarFormat(params.progress, options)} ${fileLine(file)}`;

  const progressOf = (file: FileReport) =>
    file.state === 'indexing'
      ? file.indexing && file.indexing.total > 0
        ? file.indexing.done / file.indexing.total
        : 0
      : file.size > 0
        ? file.sent / file.size
        : 1;

  return {
    changed(file) {
      latest.set(file.key, file);
      // Bytes dealt with: sent so far, and the whole size of files that ended (unchanged ones send none).
      const handled = reports().reduce((n, r) => n + (DONE_STATES.includes(r.state) ? r.size : r.sent), 0);
      overall.update(Math.min(handled, Math.max(1, totalBytes)));
      let bar = bars.get(file);
      if (DONE_STATES.includes(file.state)) {
        if (bar) {
          multibar.remove(bar);
          bars.delete(file);
        }
        const detail = file.state === 'failed' ? `: ${file.error ?? 'failed'}` : '';
        multibar.log(`${file.state.padEnd(9)} ${file.key}${detail}\n`);
        return;
      }
      if (file.state !== 'uploading' && file.state !== 'indexing') return;
      if (!bar) {
        if (bars.size >= rows) return;
        bar = multibar.create(1000, 0, {}, { format: barFormat(file) });
        bars.set(file, bar);
      }
      bar.update(Math.round(1000 * progressOf(file)));
    },
    end(allReports, summary) {
      overall.update(Math.max(1, totalBytes));
      // stop() draws the bars but not the lines logged since the last redraw: redraw once first.
      multibar.update();
      multibar.stop();
      terminal.write(summaryTable(allReports, summary));
    },
  };
}
