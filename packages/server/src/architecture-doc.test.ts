import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/** The server's layers, lowest first, as the import rules read them (tools/server-layers.cjs). */
const { SRC: RULES_ROOT, LAYERS } = createRequire(import.meta.url)('../../../tools/server-layers.cjs') as {
  SRC: string;
  LAYERS: { name: string; path: string }[];
};

/** The top-level folders (`name/`) and production files of packages/server/src. */
const topLevelEntries = (): string[] =>
  readdirSync(SRC, { withFileTypes: true })
    .filter((e) => e.isDirectory() || /(?<!\.test|\.d)\.ts$/.test(e.name))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();

/** The layer whose rule path matches `entry` (a folder is matched by a file in it), or undefined. */
function layerOf(entry: string): string[] {
  const file = `packages/server/src/${entry.endsWith('/') ? `${entry}x.ts` : entry}`;
  return LAYERS.filter((layer) => new RegExp(layer.path).test(file)).map((layer) => layer.name);
}

/** The Layers table of the document: each layer's row and the names in backticks it lists. */
function documentedLayers(): Map<string, string[]> {
  const section = DOC.slice(DOC.indexOf('## Layers'), DOC.indexOf('\n## ', DOC.indexOf('## Layers') + 1));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const layer = /^`([a-z]+)`$/.exec(cells[1] ?? '')?.[1];
    if (layer)
      rows.set(
        layer,
        [...(cells[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string),
      );
  }
  return rows;
}

/** The names the document does not mention as code (`name`). */
const unnamed = (names: string[]) => names.filter((name) => !DOC.includes(`\`${name}\``));

describe('docs/architecture.md', () => {
  it('names every top-level folder of packages/server/src', () => {
    const folders = foldersOf(SRC).filter((name) => name !== 'modules');
    expect(folders.length).toBeGreaterThan(5);
    expect(unnamed(folders.map((name) => `${name}/`))).toEqual([]);
  });

  it('puts every top-level folder and file of packages/server/src in the layer the import rules give it', () => {
    expect(RULES_ROOT).toBe('^packages/server/src/');
    const documented = documentedLayers();
    expect([...documented.keys()]).toEqual(LAYERS.map((layer) => layer.name));
    const entries = topLevelEntries();
    expect(entries).toContain('workers/');
    const misplaced = entries.flatMap((entry) => {
      const rules = layerOf(entry);
      const doc = [...documented].filter(([, names]) => names.includes(entry)).map(([layer]) => layer);
      return rules.length === 1 && doc.length === 1 && rules[0] === doc[0] ? [] : [{ entry, rules, doc }];
    });
    expect(misplaced).toEqual([]);
  });

  it('names every module', () => {
    const modules = foldersOf(new URL('modules/', SRC));
    expect(modules).toContain('identity');
    expect(unnamed(modules.map((name) => `modules/${name}`))).toEqual([]);
  });

  it('names every folder of search/', () => {
    const folders = foldersOf(new URL('search/', SRC));
    expect(folders).toEqual(['embed', 'index', 'ingest', 'language']);
    expect(unnamed(folders.map((name) => `search/${name}/`))).toEqual([]);
  });

  it('names every package', () => {
    const packages = foldersOf(new URL('packages/', ROOT));
    expect(packages).toContain('console');
    expect(unnamed(packages.map((name) => `packages/${name}`))).toEqual([]);
  });
});
