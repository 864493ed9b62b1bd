// Human handoff across a cluster (three `parley serve` processes on one PostgreSQL database behind nginx,
// e2e/support/deployment.ts): a person takes a conversation over through one process while 100 visitor messages
// arrive through nginx, spread over all three; every reply job, on whichever process, checks who answers in the
// transaction that would post its reply, so none posts after the take-over committed.
import { ChatClient, Client } from '@parley/client';
import type { InboxMessage } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Deployment, haveCluster } from '../packages/testkit/src/e2e/deployment.js';
import { metric, useModelCluster } from '../packages/testkit/src/e2e/model-cluster.js';
import { requireBuild, type ServerProcess } from '../packages/testkit/src/e2e/server.js';

requireBuild();

const clusterHere = haveCluster('cluster handoff test');

/** Polls `test` every 100 ms until it holds (or fails after `timeoutMs`). */
async function waitFor(test: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await test())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!clusterHere)('human handoff on three processes behind nginx', () => {
  const cluster = useModelCluster({ PARLEY_ADMIN_PASSWORD: 'cluster-handoff-password-1' });
  let d: Deployment;
  let admin: Client;
  let botId: string;

  beforeAll(async () => {
    d = cluster.d;
    admin = new Client({ apiUrl: d.url, token: d.owner.token, workspaceId: d.owner.workspaceId });
    botId = (await admin.createBot({ name: 'Cluster handoff' })).bot.id;
  }, 60_000);

  it('a take-over through one process silences the bot on all: 100 parallel visitor messages, no bot reply after it', async () => {
    const anon = new ChatClient({ apiUrl: d.url, botId });
    const { key } = await anon.createUser({ name: 'Racer' });
    const chat = anon.with({ userKey: key });
    const { conversation } = await chat.createConversation();
    const transcript = async (): Promise<InboxMessage[]> =>
      admin
        .listBotConversationMessages({ id: botId, conversationId: conversation.id, pageSize: 100 })
        .collect();
    const botReplies = (messages: InboxMessage[]) =>
      messages.filter((m) => m.author === 'bot' && m.answer !== 'handoff');

    // The bot answers before: replies flow through the cluster.
    await chat.createMessage({ conversationId: conversation.id, payload: { type: 'text', text: 'Hello?' } });
    await waitFor(async () => botReplies(await transcript()).length === 1, 60_000);

    // 100 visitor messages through nginx, 10 at a time in flight (10 lanes of 10); when 30 were accepted, a
    // person takes the conversation over through process 0 alone, while the others keep coming.
    let accepted = 0;
    let takeOver: Promise<Response> | undefined;
    const takeOverUrl = `${(d.processes[0] as ServerProcess).url}/v1/admin/bots/${botId}/conversations/${conversation.id}/handoff`;
    const lane = async (l: number) => {
      for (let i = 0; i < 10; i++) {
        await chat.createMessage({
          conversationId: conversation.id,
          payload: { type: 'text', text: `Question ${l * 10 + i}?` },
        });
        accepted++;
        if (accepted === 30)
          takeOver = fetch(takeOverUrl, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${d.owner.token}`,
              'x-workspace-id': d.owner.workspaceId,
              'content-type': 'application/json',
            },
            body: JSON.stringify({ action: 'take' }),
          });
      }
    };
    const sent = Array.from({ length: 10 }, (_, l) => lane(l));
    await Promise.all(sent);
    const taken = await (takeOver as Promise<Response>);
    expect(taken.status, await taken.clone().text()).toBe(200);
    expect(((await taken.json()) as { handoff: { state: string } }).handoff.state).toBe('assigned');

    // Every reply job of those messages ended, on whichever process ran it.
    await waitFor(
      async () =>
        (await metric(d.processes[0] as ServerProcess, 'parley_job_queue_depth', { kind: 'chat_reply' })) ===
        0,
      120_000,
    );
    const messages = await transcript();
    expect(messages.filter((m) => m.author === 'visitor')).toHaveLength(101);
    const notice = messages.findIndex(
      (m) => m.answer === 'handoff' && m.text.startsWith("You're now talking to"),
    );
    expect(notice).toBeGreaterThan(0);
    const after = botReplies(messages.slice(notice + 1));
    expect(after.map((m) => m.text)).toEqual([]);
    // The visitors' messages after the take-over stay unanswered by the bot, whichever process stored them.
    expect(messages.slice(notice + 1).some((m) => m.author === 'visitor')).toBe(true);
    console.log(
      `cluster handoff: ${botReplies(messages).length - 1} bot replies before the take-over, ${after.length} after, ` +
        `${messages.slice(notice + 1).filter((m) => m.author === 'visitor').length} visitor messages after it`,
    );
  }, 240_000);
});
