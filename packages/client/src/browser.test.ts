import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The client must bundle for browsers: the Node-only `path` upload loads node:fs lazily, out of the bundle's
// reach. esbuild is in the workspace (webchat builds with it); without it this check is skipped.
const esbuild = await import('esbuild').catch(() => undefined);

describe.skipIf(!esbuild)('the client in a browser bundle', () => {
  it('bundles for the browser with no Node built-in in it', async () => {
    const result = await esbuild?.build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    expect(result?.errors).toEqual([]);
    const inputs = Object.keys(result?.metafile?.inputs ?? {});
    expect(inputs.some((i) => i.endsWith('client/src/transfer.ts'))).toBe(true);
    expect(inputs.filter((i) => i.startsWith('node:') || /(^|\/)node_modules\/@types\/node/.test(i))).toEqual(
      [],
    );
    const code = result?.outputFiles?.[0]?.text ?? '';
    expect(code).not.toMatch(/from\s*["']node:/);
    expect(code).not.toMatch(/require\(["']node:/);
  });
});
