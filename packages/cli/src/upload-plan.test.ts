import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outsideFolder, useTempDirs } from '../../testkit/src/server/temp-dirs.js';
import { planUpload } from './upload-plan.js';

const tempDir = useTempDirs('parley-plan-');

/**
 * A folder with real files, and links: a file link and a folder link to outside it, a file link and a
 * folder link inside it, and a folder link to the folder itself (a loop).
 */
async function tree(): Promise<{ root: string; outside: string }> {
  const outside = await outsideFolder(tempDir);
  const root = join(await tempDir(), 'docs');
  await mkdir(join(root, 'sub'), { recursive: true });
  await writeFile(join(root, 'readme.md'), 'real');
  await writeFile(join(root, 'sub', 'inner.md'), 'real, deeper');
  await symlink(join(outside, 'secret.txt'), join(root, 'file-out.txt'));
  await symlink(join(outside, 'private'), join(root, 'folder-out'));
  await symlink('/etc/hostname', join(root, 'sub', 'hostname'));
  await symlink(join('sub', 'inner.md'), join(root, 'file-in.md'));
  await symlink('sub', join(root, 'folder-in'));
  await symlink('..', join(root, 'sub', 'loop'));
  return { root, outside };
}

const keys = (plan: { files: Array<{ key: string }> }) => plan.files.map((f) => f.key).sort();
const skippedOf = (plan: { skipped: Array<{ path: string; reason: string }> }, root: string) =>
  Object.fromEntries(plan.skipped.map((s) => [s.path.slice(root.length + 1), s.reason]));

describe('planUpload and symbolic links', () => {
  it('leaves every link under a folder out, naming each, without --follow-symlinks', async () => {
    const { root } = await tree();
    const plan = await planUpload([root], '/');
    expect(keys(plan)).toEqual(['readme.md', 'sub/inner.md']);
    expect(skippedOf(plan, root)).toEqual({
      'file-in.md': 'link',
      'file-out.txt': 'link',
      'folder-in': 'link',
      'folder-out': 'link',
      'sub/hostname': 'link',
      'sub/loop': 'link',
    });
  });

  it('follows the links inside the folder with --follow-symlinks, never the ones outside it, nor a loop', async () => {
    const { root } = await tree();
    const plan = await planUpload([root], '/', { followSymlinks: true });
    expect(keys(plan)).toEqual(['file-in.md', 'folder-in/inner.md', 'readme.md', 'sub/inner.md']);
    expect(skippedOf(plan, root)).toEqual({
      'file-out.txt': 'outside',
      'folder-out': 'outside',
      'folder-in/hostname': 'outside',
      'folder-in/loop': 'loop',
      'sub/hostname': 'outside',
      'sub/loop': 'loop',
    });
    expect(plan.files.every((f) => f.path.startsWith(root))).toBe(true);
  });

  it('checks what a glob matches the same way, from its fixed part', async () => {
    const { root } = await tree();
    const plain = await planUpload([`${root}/**/*`], '/');
    expect(keys(plain)).toEqual(['readme.md', 'sub/inner.md']);
    const followed = await planUpload([`${root}/**/*`], '/', { followSymlinks: true });
    expect(keys(followed)).not.toContain('file-out.txt');
    expect(keys(followed)).not.toContain('sub/hostname');
    expect(keys(followed).filter((k) => k.startsWith('folder-out'))).toEqual([]);
    expect(keys(followed)).toEqual(expect.arrayContaining(['file-in.md', 'readme.md', 'sub/inner.md']));
    expect(skippedOf(followed, root)).toMatchObject({ 'file-out.txt': 'outside', 'sub/hostname': 'outside' });
  });

  it('says why a folder holding only links matches no file', async () => {
    const { outside } = await tree();
    const only = await tempDir();
    await symlink(join(outside, 'secret.txt'), join(only, 'secret.txt'));
    await expect(planUpload([only], '/')).rejects.toThrow(
      `${only}: matches no file (1 symbolic link(s) left out: --follow-symlinks follows the ones inside it)`,
    );
  });

  it('still follows a link named on the command line (the user chose it)', async () => {
    const { root } = await tree();
    const plan = await planUpload([join(root, 'file-in.md')], '/');
    expect(keys(plan)).toEqual(['file-in.md']);
  });
});
