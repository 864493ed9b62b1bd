import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from './database.js';
import { PerHandle, sqliteFileOf } from './per-handle.js';

describe('PerHandle and sqliteFileOf', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-per-handle-'));
  let file: Db;
  let memory: Db;
  beforeAll(async () => {
    file = await openDatabase({ dataDir: dir });
    memory = await openDatabase({ dataDir: dir, sqliteFile: ':memory:' });
  });
  afterAll(async () => {
    await file.close();
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes one value per handle, a transaction its own, and forgets it when taken', async () => {
    const kept = new PerHandle<{ n: number }>();
    let made = 0;
    const make = () => ({ n: ++made });
    const first = kept.of(file.kysely, make);
    expect(kept.of(file.kysely, make)).toBe(first);
    expect(kept.of(memory.kysely, make)).not.toBe(first);
    const inTransaction = await file.kysely.transaction().execute(async (tx) => kept.of(tx, make));
    expect(inTransaction).not.toBe(first);
    expect(made).toBe(3);
    expect(kept.get(file.kysely)).toBe(first);
    expect(kept.take(file.kysely)).toBe(first);
    expect(kept.get(file.kysely)).toBeUndefined();
    expect(kept.of(file.kysely, make).n).toBe(4);
  });

  it('names the file of a database on disk, and none for one in memory', async () => {
    expect(await sqliteFileOf(file.kysely)).toBe(join(dir, 'parley.db'));
    expect(await sqliteFileOf(memory.kysely)).toBeUndefined();
  });
});
