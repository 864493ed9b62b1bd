import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The README's TypeScript examples must compile against the client: each ```ts block becomes the body of a
// function (its imports hoisted), with the few names the prose introduces declared up front.

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', '..');

/** The README's ts blocks as one module. */
function readmeModule(markdown: string, index: string): string {
  const blocks = [...markdown.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const fromClient = new Set<string>(['ChatClient', 'Client']);
  const fromNode = new Map<string, Set<string>>();
  const bodies = blocks.map((block, i) => {
    const body: string[] = [];
    const lines = block.split('\n');
    for (let j = 0; j < lines.length; j++) {
      let line = lines[j] ?? '';
      if (!line.startsWith('import ')) {
        body.push(line);
        continue;
      }
      while (!line.trimEnd().endsWith(';')) line += `\n${lines[++j] ?? ''}`;
      const m = /^import \{([\s\S]*?)\} from '([^']+)';$/.exec(line.trim());
      if (!m) throw new Error(`README import not understood: ${line}`);
      const names = (m[1] ?? '')
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean);
      const target = m[2] === '@parley/client' ? fromClient : new Set<string>();
      if (m[2] !== '@parley/client')
        fromNode.set(m[2] ?? '', new Set([...(fromNode.get(m[2] ?? '') ?? []), ...names]));
      for (const n of names) target.add(n);
    }
    return `async function block${i}() {\n${body.join('\n')}\n}`;
  });
  const head = [
    `import { ${[...fromClient].sort().join(', ')} } from ${JSON.stringify(index)};`,
    `import type { ChatConversation, FileObject } from ${JSON.stringify(index)};`,
    ...[...fromNode].map(([mod, names]) => `import { ${[...names].sort().join(', ')} } from '${mod}';`),
    'declare const client: Client;',
    'declare const files: Client;',
    'declare const id: string;',
    'declare const botId: string;',
    'declare const big: FileObject;',
    'declare const note: FileObject;',
    'declare const chat: ChatClient;',
    'declare const conversation: ChatConversation;',
  ];
  return `${head.join('\n')}\n\n${bodies.join('\n\n')}\n\nexport { ${bodies.map((_, i) => `block${i}`).join(', ')} };\n`;
}

describe('the README', () => {
  it('has TypeScript examples that compile against the client', { timeout: 60_000 }, async () => {
    const markdown = await readFile(join(here, '..', 'README.md'), 'utf8');
    const dir = await mkdtemp(join(tmpdir(), 'parley-readme-'));
    try {
      const file = join(dir, 'readme.mts');
      await writeFile(file, readmeModule(markdown, join(here, 'index.js')));
      const program = ts.createProgram([file], {
        target: ts.ScriptTarget.ES2023,
        lib: ['lib.es2023.d.ts'],
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: true,
        noEmit: true,
        types: ['node'],
        typeRoots: [join(root, 'node_modules', '@types')],
        baseUrl: root,
        paths: { '@parley/protocol': ['packages/protocol/src/index.ts'] },
      });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file?.fileName === file)
        .map((d) => {
          const at =
            d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
          return `${at ? `${at.line + 1}:${at.character + 1} ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
        });
      expect(errors).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
