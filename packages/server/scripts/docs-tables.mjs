/**
 * Regenerates the generated tables of the docs: the configuration table of docs/configuration.md (from the
 * variables' schema, src/config/schema.ts) and the errors table of docs/admin-api.md (from the error catalogue,
 * src/errors/catalogue.ts). Reads the compiled modules, so run it as `npm run docs:tables -w @parley/server`,
 * which compiles first. `readme.test.ts` and `catalogue.test.ts` fail while the pages and the sources differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_DOC, CONFIG_HEADING, renderConfigTable } from '../dist/config/docs.js';
import { replaceTable } from '../dist/config/markdown.js';
import { ERRORS_DOC, ERRORS_HEADING, renderErrorsTable } from '../dist/errors/docs.js';

const tables = [
  { page: CONFIG_DOC, heading: CONFIG_HEADING, render: renderConfigTable, what: 'configuration' },
  { page: ERRORS_DOC, heading: ERRORS_HEADING, render: renderErrorsTable, what: 'errors' },
];
for (const { page, heading, render, what } of tables) {
  const url = new URL(`../../../${page}`, import.meta.url);
  const before = readFileSync(url, 'utf8');
  const after = replaceTable(before, heading, render());
  if (after === before) {
    console.log(`${page}: the ${what} table is up to date`);
  } else {
    writeFileSync(url, after);
    console.log(`${page}: the ${what} table regenerated`);
  }
}
