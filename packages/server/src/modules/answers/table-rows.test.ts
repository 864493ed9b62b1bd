import { describe, expect, it } from 'vitest';
import { searchPassage } from '../../../../testkit/src/server/search-passage.js';
import { tableRows } from './table-rows.js';

const PRICE_LIST =
  'SKU | Product | Price (EUR) | In stock\n' +
  'GR-300 | Ostra flat burr grinder | 249.00 | yes\n' +
  'GR-310 | Replacement burr set | 34.90 | yes';

/** The rows `tableRows` writes of a table passage of `text` (in the file `key`). */
const rowsOf = (text: string, key?: string) =>
  tableRows(searchPassage(text, { subtype: 'table', ...(key === undefined ? {} : { key }) }));

describe('tableRows', () => {
  it('writes each row with its header names and the header’s currency after a price, the header row left out', () => {
    expect(rowsOf(PRICE_LIST, 'price-list.csv')).toEqual([
      'Ostra flat burr grinder — SKU: GR-300, price: 249.00 EUR, in stock: yes',
      'Replacement burr set — SKU: GR-310, price: 34.90 EUR, in stock: yes',
    ]);
  });

  it('takes the currency from a symbol in the header, or from the file’s name for a money column', () => {
    const symbol = 'Item | Price in £\nTravel case | 29.00';
    expect(rowsOf(symbol)).toEqual(['Travel case — price: 29.00 GBP']);
    const named = 'Plan | Monthly price | Users\nTeam | 9 | 50';
    expect(rowsOf(named, 'docs/prices-chf.csv')).toEqual(['Team — monthly price: 9 CHF, users: 50']);
    expect(rowsOf(named, 'plans.csv')).toEqual(['Team — monthly price: 9, users: 50']);
  });

  it('labels a row by its first name cell, not a date or a code; without one every cell is named', () => {
    const holidays = 'Date | Holiday | Office\n2026-04-03 | Good Friday | closed';
    expect(rowsOf(holidays)).toEqual(['Good Friday — date: 2026-04-03, office: closed']);
    const codes = 'Code | Value\nE1 | 310';
    expect(rowsOf(codes)).toEqual(['code: E1, value: 310']);
  });

  it('leaves a table without a header row, and any passage that is no table, to be quoted as it is', () => {
    expect(rowsOf('GR-300 | 249.00\nGR-310 | 34.90')).toBeUndefined();
    expect(tableRows(searchPassage(PRICE_LIST, { subtype: 'paragraph' }))).toBeUndefined();
    expect(rowsOf('SKU | Product')).toBeUndefined();
  });
});
