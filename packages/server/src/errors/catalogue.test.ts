import { readdirSync, readFileSync } from 'node:fs';
import { ERROR_TYPES, type ErrorType } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { readTable, replaceTable } from '../config/markdown.js';
import { ERROR_CATALOGUE, statusOf } from './catalogue.js';
import {
  ERRORS_DOC,
  ERRORS_HEADING,
  ERRORS_TABLE_HEADER,
  errorsTableRows,
  renderErrorsTable,
} from './docs.js';

const SRC = new URL('../', import.meta.url);
const PAGE = readFileSync(new URL(`../../../../${ERRORS_DOC}`, import.meta.url), 'utf8');
const REGENERATE = 'run `npm run docs:tables -w @parley/server` to regenerate it from the catalogue';
const listed = ERROR_CATALOGUE.flatMap((entry) => entry.types);

/** The error types the service's own code raises: every `ApiError('<type>'` outside tests. */
function raisedTypes(): Set<string> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.ts') && !/\.(test|suite)\.ts$/.test(file),
  );
  const types = new Set<string>();
  for (const file of files) {
    const source = readFileSync(new URL(file, SRC), 'utf8');
    for (const match of source.matchAll(/\bApiError\(\s*'([A-Za-z]+)'/g)) types.add(String(match[1]));
  }
  return types;
}

describe('the error catalogue', () => {
  it('lists wire types once each, under the status the service answers them with, by rising status', () => {
    expect(listed.filter((type) => !(type in ERROR_TYPES))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    for (const { status, types } of ERROR_CATALOGUE) {
      for (const type of types) expect(statusOf(type), type).toBe(status);
    }
    const statuses = ERROR_CATALOGUE.map((entry) => entry.status);
    expect(statuses).toEqual([...new Set(statuses)].sort((a, b) => a - b));
  });

  it('answers the wire status of every type but the override docs/api.md states', () => {
    const overridden = (Object.keys(ERROR_TYPES) as ErrorType[]).filter(
      (t) => statusOf(t) !== ERROR_TYPES[t],
    );
    expect(overridden).toEqual(['OperationTimeout']);
    const api = readFileSync(new URL('../../../../docs/api.md', import.meta.url), 'utf8').replace(
      /\s+/g,
      ' ',
    );
    for (const type of overridden) {
      expect(api).toContain(`${statusOf(type)} \`${type}\` (the catalogue's ${ERROR_TYPES[type]}`);
    }
  });

  it('lists exactly the error types the service raises', () => {
    const raised = raisedTypes();
    expect([...raised].filter((type) => !listed.includes(type as ErrorType)).sort()).toEqual([]);
    expect(listed.filter((type) => !raised.has(type)).sort()).toEqual([]);
  });
});

describe('the errors table of docs/admin-api.md', () => {
  const [header, ...rows] = readTable(PAGE, ERRORS_HEADING);

  it('states every status, type and case as the catalogue renders them', () => {
    expect(header).toEqual(ERRORS_TABLE_HEADER);
    expect(rows, REGENERATE).toEqual(errorsTableRows());
  });

  it('is formatted as the generator writes it', () => {
    expect(replaceTable(PAGE, ERRORS_HEADING, renderErrorsTable()) === PAGE, REGENERATE).toBe(true);
  });
});
