import type { Logger } from '../../../server/src/logger.js';

/** A line a {@link RecordingLogger} kept: its level, message, the bindings of its child logger and its fields. */
export type LoggedLine = Record<string, unknown> & { level: string; msg: string };

/** A logger that keeps its lines (`lines`, shared with its children) for tests to read. */
export interface RecordingLogger extends Logger {
  lines: LoggedLine[];
}

/** A {@link RecordingLogger}; its children add their bindings to each line. */
export function recordingLogger(
  bindings: Record<string, unknown> = {},
  lines: LoggedLine[] = [],
): RecordingLogger {
  const write =
    (level: string) =>
    (fields: object, msg: string): void =>
      void lines.push({ ...bindings, ...fields, level, msg });
  return {
    lines,
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    child: (more) => recordingLogger({ ...bindings, ...more }, lines),
  };
}
