// Text uploaded without a charset is served with `charset=utf-8` when its bytes are UTF-8, so a browser shows
// "Café" and not "CafÃ©"; other bytes get no charset (nothing is guessed), and a charset the upload named stays.
import { describe, expect, it } from 'vitest';
import { fetchUrl, getFile, store } from '../../../../testkit/src/server/files-api.js';
import { useTestApp } from '../../../../testkit/src/server/fixtures.js';

describe('the charset of text downloads', () => {
  const t = useTestApp();

  it('adds charset=utf-8 to text uploaded as text/plain without one when the bytes are UTF-8', async () => {
    const file = await store(t, 'menu/cafe.txt', 'Café', { contentType: 'text/plain' });
    const res = await fetchUrl(t, file.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.rawPayload.equals(Buffer.from('Café'))).toBe(true);
    // The file keeps the media type it was uploaded with.
    expect((await getFile(t, file.id)).contentType).toBe('text/plain');
  });

  it('adds it to other text types too (the type from the key), and on HEAD', async () => {
    const file = await store(t, 'notes/readme.md', '# Grüße\n');
    expect(file.contentType).toBe('text/markdown');
    const res = await fetchUrl(t, file.url, {}, 'HEAD');
    expect(res.headers['content-type']).toBe('text/markdown; charset=utf-8');
  });

  it('names no charset for bytes that are not UTF-8 (Latin-1 é)', async () => {
    const latin1 = Buffer.from('Caf\xe9', 'latin1');
    const file = await store(t, 'menu/latin1.txt', latin1, { contentType: 'text/plain' });
    const res = await fetchUrl(t, file.url);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.rawPayload.equals(latin1)).toBe(true);
  });

  it('keeps a charset the upload named, even when the bytes are UTF-8', async () => {
    const file = await store(t, 'menu/named.txt', 'Café', { contentType: 'text/plain; charset=iso-8859-1' });
    const res = await fetchUrl(t, file.url);
    expect(res.headers['content-type']).toBe('text/plain; charset=iso-8859-1');
  });

  it('leaves types that are not text alone', async () => {
    const file = await store(t, 'data/cafe.json', '{"name":"Café"}', { contentType: 'application/json' });
    expect((await fetchUrl(t, file.url)).headers['content-type']).toBe('application/json');
  });

  it('serves a replacement by its own bytes: UTF-8 then Latin-1 under the same key', async () => {
    await store(t, 'menu/again.txt', 'Café');
    const file = await store(t, 'menu/again.txt', Buffer.from('Caf\xe9', 'latin1'));
    expect((await fetchUrl(t, file.url)).headers['content-type']).toBe('text/plain');
  });
});
