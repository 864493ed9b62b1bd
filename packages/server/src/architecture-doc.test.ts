import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** docs/architecture.md describes the code as built: every folder of the server and every package has its line. */
const ROOT = new URL('../../../', import.meta.url);
const SRC = new URL('./', import.meta.url);
const DOC = readFileSync(new URL('docs/architecture.md', ROOT), 'utf8');

/** The folders directly under `folder`. */
const foldersOf = (folder: URL): string[] =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The names the document does not mention as code (`name`). */
const unnamed = (names: string[]) => names.filter((name) => !DOC.includes(`\`${name}\``));

describe('docs/architecture.md', () => {
  it('names every top-level folder of packages/server/src', () => {
    const folders = foldersOf(SRC).filter((name) => name !== 'modules');
    expect(folders.length).toBeGreaterThan(5);
    expect(unnamed(folders.map((name) => `${name}/`))).toEqual([]);
  });

  it('names every module', () => {
    const modules = foldersOf(new URL('modules/', SRC));
    expect(modules).toContain('identity');
    expect(unnamed(modules.map((name) => `modules/${name}`))).toEqual([]);
  });

  it('names every folder of search/', () => {
    const folders = foldersOf(new URL('search/', SRC));
    expect(folders).toEqual(['embed', 'index', 'ingest']);
    expect(unnamed(folders.map((name) => `search/${name}/`))).toEqual([]);
  });

  it('names every package', () => {
    const packages = foldersOf(new URL('packages/', ROOT));
    expect(packages).toContain('console');
    expect(unnamed(packages.map((name) => `packages/${name}`))).toEqual([]);
  });
});
