import type { FileObject } from '@parley/protocol';
import { expect } from 'vitest';
import { getFile, store } from './files-api.js';
import type { TestApp } from './harness.js';

/** Polls a file of the bootstrap bot, 25 ms apart, until it leaves indexing_pending; answers it. */
export async function settled(t: TestApp, id: string, tries = 400): Promise<FileObject> {
  for (let i = 0; i < tries; i++) {
    const file = await getFile(t, id);
    if (file.status !== 'indexing_pending') return file;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('indexing did not finish');
}

/**
 * Upserts `text` as the file `key` with `index: true` (unless `extra` says otherwise) and uploads it, as the
 * bot unless `token` says otherwise; answers the uploaded file (its indexing queued).
 */
export function uploadText(
  t: TestApp,
  key: string,
  text: string,
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<FileObject> {
  return store(t, key, text, { index: true, ...extra }, token);
}

/** {@link uploadText}, then waits for its indexing, which must complete; answers the file's id. */
export async function uploadIndexed(
  t: TestApp,
  key: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { id } = await uploadText(t, key, text, extra);
  expect((await settled(t, id, 2400)).status).toBe('indexing_completed');
  return id;
}

/** A small handbook in Markdown: the document the knowledge answer tests ask about. */
export const HANDBOOK = `# Parley handbook

## Refunds

Customers may ask for a refund within 30 days of purchase. Refunds go back to the original card.

## Shipping

Parcels leave the warehouse every weekday at noon. International shipping takes five to ten days.
`;

/** A second document, kept out of (or put into) the bot's knowledge bases by the tests. */
export const PARKING = `# Visitors

Visitor parking is free on level 2 of the garage.
`;
