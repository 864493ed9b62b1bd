/**
 * Regenerates the README's configuration table (from the variables' schema, src/config/schema.ts) and its
 * errors table (from the error catalogue, src/errors/catalogue.ts). Reads the compiled modules, so run it as
 * `npm run docs:tables -w @parley/server`, which compiles first. `readme.test.ts` and `catalogue.test.ts`
 * fail while the README and the sources differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIG_HEADING, renderConfigTable } from '../dist/config/docs.js';
import { replaceTable } from '../dist/config/markdown.js';
import { ERRORS_HEADING, renderErrorsTable } from '../dist/errors/docs.js';

const readmeUrl = new URL('../../../README.md', import.meta.url);
const before = readFileSync(readmeUrl, 'utf8');
let after = replaceTable(before, CONFIG_HEADING, renderConfigTable());
after = replaceTable(after, ERRORS_HEADING, renderErrorsTable());
if (after === before) {
  console.log('README.md tables are up to date');
} else {
  writeFileSync(readmeUrl, after);
  console.log('README.md tables regenerated: configuration and errors');
}
