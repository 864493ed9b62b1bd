import { ListMeta } from '@parley/protocol';
import Fastify from 'fastify';
import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { empty, foundOrCreated, listOf, pageOf } from './route-helpers.js';

const Item = Type.Object({ id: Type.String() });

describe('list schemas', () => {
  it('lists items under their name, a page with its meta after them', () => {
    expect(listOf('keys', Item)).toEqual(Type.Object({ keys: Type.Array(Item) }));
    const page = pageOf('bots', Item);
    expect(page).toEqual(Type.Object({ bots: Type.Array(Item), meta: ListMeta }));
    expect(Object.keys(page.properties)).toEqual(['bots', 'meta']);
  });
});

describe('answers', () => {
  it('answers {} once the work is done, and fails with it', async () => {
    let done = false;
    await expect(empty(Promise.resolve().then(() => (done = true)))).resolves.toEqual({});
    expect(done).toBe(true);
    await expect(empty(Promise.reject(new Error('no')))).rejects.toThrow('no');
  });

  it('answers a get-or-create 201 when it created the resource, 200 when it found it', async () => {
    const app = Fastify();
    app.post('/:created', async (req, reply) =>
      foundOrCreated(reply, {
        thing: { id: 'a' },
        created: (req.params as { created: string }).created === 'yes',
      }),
    );
    const created = await app.inject({ method: 'POST', url: '/yes' });
    expect([created.statusCode, created.json()]).toEqual([201, { thing: { id: 'a' } }]);
    const found = await app.inject({ method: 'POST', url: '/no' });
    expect([found.statusCode, found.json()]).toEqual([200, { thing: { id: 'a' } }]);
    await app.close();
  });
});
