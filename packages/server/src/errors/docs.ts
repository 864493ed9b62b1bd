import { type Row, renderTable } from '../config/markdown.js';
import { ERROR_CATALOGUE } from './catalogue.js';

/** The page that lists the error types, relative to the repository's root. */
export const ERRORS_DOC = 'docs/admin-api.md';
/** The heading of ERRORS_DOC whose table lists the error types. */
export const ERRORS_HEADING = '## Errors';
/** The errors table's header row. */
export const ERRORS_TABLE_HEADER: Row = ['status', 'type', 'when'];

/** The errors table's row of each status, from ERROR_CATALOGUE. */
export function errorsTableRows(): Row[] {
  return ERROR_CATALOGUE.map(({ status, types, when }) => [
    String(status),
    types.map((type) => `\`${type}\``).join(', '),
    when,
  ]);
}

/** The Admin API page's errors table (docs/admin-api.md), generated from ERROR_CATALOGUE. */
export function renderErrorsTable(): string {
  return renderTable(ERRORS_TABLE_HEADER, errorsTableRows());
}
