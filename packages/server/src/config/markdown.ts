/** One row of a Markdown table: its cells as Markdown, unescaped. */
export type Row = readonly string[];

const escapePipes = (cell: string) => cell.replace(/\|/g, '\\|');

/**
 * A Markdown table with padded columns, the way Biome formats one.
 * @example renderTable(['a', 'b'], [['1', '2']]) // '| a   | b   |\n| --- | --- |\n| 1   | 2   |'
 */
export function renderTable(header: Row, rows: readonly Row[]): string {
  const lines = [header, ...rows].map((row) => row.map(escapePipes));
  const widths = header.map((_, i) => Math.max(3, ...lines.map((cells) => (cells[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    `| ${widths.map((width, i) => (cells[i] ?? '').padEnd(width)).join(' | ')} |`;
  const [head = [], ...body] = lines;
  return [line(head), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}

/** The cells of one table line, trimmed and unescaped. */
function cellsOf(line: string): string[] {
  return line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** Where the first table after `heading` sits in `markdown` (lines [start, end)), and its rows. */
function locate(markdown: string, heading: string): { lines: string[]; start: number; end: number } {
  const lines = markdown.split('\n');
  const at = lines.findIndex((line) => line.trim() === heading);
  if (at < 0) throw new Error(`No heading "${heading}"`);
  const start = lines.findIndex((line, i) => i > at && line.startsWith('|'));
  if (start < 0 || lines.slice(at + 1, start).some((line) => /^#{1,6} /.test(line))) {
    throw new Error(`No table under "${heading}"`);
  }
  let end = start;
  while (lines[end]?.startsWith('|')) end++;
  return { lines, start, end };
}

/** The rows of the first table under `heading` (the header row first, the `---` line left out). */
export function readTable(markdown: string, heading: string): string[][] {
  const { lines, start, end } = locate(markdown, heading);
  return lines
    .slice(start, end)
    .filter((_, i) => i !== 1)
    .map(cellsOf);
}

/** `markdown` with the first table under `heading` replaced by `table`. */
export function replaceTable(markdown: string, heading: string, table: string): string {
  const { lines, start, end } = locate(markdown, heading);
  return [...lines.slice(0, start), table, ...lines.slice(end)].join('\n');
}
