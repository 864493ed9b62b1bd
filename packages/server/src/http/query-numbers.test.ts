// Numbers in query strings are coerced from text: one that is not finite (`1e309`, `Infinity`) is a 400
// InvalidQuery naming the parameter on every list, never a 500 from the database.
import { beforeAll, describe, expect, it } from 'vitest';
import { chatClient, type TestChatUser } from '../../../testkit/src/server/chat.js';
import { useTestApp } from '../../../testkit/src/server/fixtures.js';
import { testDatabases } from '../../../testkit/src/server/harness.js';
import { badFields, expectError } from '../../../testkit/src/server/wire.js';

const databases = testDatabases();

describe.each(databases)('non-finite numbers in query strings ($name)', ({ url }) => {
  const t = useTestApp(url ? { databaseUrl: url } : {});
  let user: TestChatUser;
  let conversation: string;
  beforeAll(async () => {
    const chat = chatClient(t);
    user = await chat.user();
    conversation = await chat.conversation(user);
  });

  const bot = () => ({ authorization: `Bearer ${t.botKey}`, 'x-bot-id': t.botId });
  const owner = () => ({ authorization: `Bearer ${t.owner.token}`, 'x-workspace-id': t.workspaceId });
  /** A list route of each surface, with the headers of a caller allowed to read it. */
  const lists = (): Array<[string, Record<string, string>]> => [
    ['/v1/admin/bots', owner()],
    ['/v1/admin/workspaces', owner()],
    ['/v1/admin/workspace-members', owner()],
    [`/v1/admin/workspaces/${t.workspaceId}/audit-records`, owner()],
    [`/v1/admin/bots/${t.botId}/logs`, owner()],
    ['/v1/files', bot()],
    ['/v1/files/knowledge-bases', bot()],
    [`/v1/chat/${t.botId}/conversations`, { 'x-user-key': user.key }],
    [`/v1/chat/${t.botId}/conversations/${conversation}/messages`, { 'x-user-key': user.key }],
  ];

  for (const value of ['1e309', '-1e309', 'Infinity', '-Infinity', 'NaN']) {
    it(`answers pageSize=${value} with 400 InvalidQuery on every list`, async () => {
      for (const [path, headers] of lists()) {
        const res = await t.app.inject({ method: 'GET', url: `${path}?pageSize=${value}`, headers });
        expect(res.statusCode, `${path}: ${res.body}`).toBe(400);
        const body = expectError(res, 400, 'InvalidQuery');
        expect(badFields(body), path).toEqual(['pageSize']);
      }
    });
  }

  it('still lists with a finite pageSize', async () => {
    for (const [path, headers] of lists()) {
      const res = await t.app.inject({ method: 'GET', url: `${path}?pageSize=5`, headers });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
  });
});
