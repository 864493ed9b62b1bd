import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_DOC,
  CONFIG_HEADING,
  CONFIG_TABLE_HEADER,
  configTableRows,
  renderConfigTable,
} from './docs.js';
import { readTable, replaceTable } from './markdown.js';
import { VARIABLE_NAMES } from './schema.js';

const PAGE = readFileSync(new URL(`../../../../${CONFIG_DOC}`, import.meta.url), 'utf8');
const REGENERATE = 'run `npm run docs:tables -w @parley/server` to regenerate it from the schema';

/** The configuration page's table as cells: header row first. */
const [header, ...rows] = readTable(PAGE, CONFIG_HEADING);

describe('the configuration table of docs/configuration.md', () => {
  it('has the generated columns', () => {
    expect(header).toEqual(CONFIG_TABLE_HEADER);
  });

  it('lists exactly the variables of the schema, in its order', () => {
    expect(
      rows.map((row) => row[0]),
      REGENERATE,
    ).toEqual(VARIABLE_NAMES.map((name) => `\`${name}\``));
  });

  it('states the default, accepted values and meaning of every variable as the schema renders them', () => {
    const expected = new Map(configTableRows().map((row) => [row[0], row]));
    const mismatches = rows
      .filter((row) => JSON.stringify(row) !== JSON.stringify(expected.get(row[0] ?? '')))
      .map((row) => `page   ${row.join(' | ')}\nschema ${expected.get(row[0] ?? '')?.join(' | ')}`);
    expect(mismatches, REGENERATE).toEqual([]);
  });

  it('is formatted as the generator writes it', () => {
    expect(replaceTable(PAGE, CONFIG_HEADING, renderConfigTable()) === PAGE, REGENERATE).toBe(true);
  });

  it('says how to regenerate it', () => {
    const section = PAGE.slice(
      PAGE.indexOf(CONFIG_HEADING),
      PAGE.indexOf('\n## ', PAGE.indexOf(CONFIG_HEADING) + 5),
    );
    expect(section).toContain('npm run docs:tables -w @parley/server');
  });
});
