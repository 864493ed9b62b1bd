// The visitor set asked of a running server (bench/answers.ts): one bot per knowledge base (so that a question
// asked of the wrong business finds nothing), its documents indexed, every question asked as a fresh webchat
// visitor, each reply scored (score.ts).
import { appendFile } from 'node:fs/promises';
import { json, type Owner, openChat, say } from '../lib/chat-ask.js';
import { indexDocuments } from '../lib/corpus.js';
import { table } from '../lib/format.js';
import type { ParleyServer } from '../lib/server.js';
import { documentBytes, KNOWLEDGE_BASE_TITLES, type KnowledgeBaseName } from './documents.js';
import { reportRows, type ScoredQuestion, scoreQuestion, type VisitorFigures } from './score.js';
import type { VisitorSet } from './set.js';

/**
 * The knowledge base's bot (made on the first run, found by name in a kept data dir) with a new access key;
 * `title` says what the bot is (default: the visitor set's title of `kb`).
 */
export async function botFor(
  server: ParleyServer,
  owner: Owner,
  kb: string,
  title = KNOWLEDGE_BASE_TITLES[kb as KnowledgeBaseName],
): Promise<ParleyServer> {
  const name = `visitor set: ${title}`;
  const headers = {
    authorization: `Bearer ${owner.token}`,
    'x-workspace-id': owner.workspaceId,
    'content-type': 'application/json',
  };
  const admin = `${server.url}/v1/admin`;
  const { bots } = await json<{ bots: Array<{ id: string; name: string }> }>(`${admin}/bots?pageSize=100`, {
    headers,
  });
  const id =
    bots.find((b) => b.name === name)?.id ??
    (
      await json<{ bot: { id: string } }>(`${admin}/bots`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name }),
      })
    ).bot.id;
  const { key } = await json<{ key: { value: string } }>(`${admin}/bots/${id}/access-keys`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ note: 'bench/answers.ts' }),
  });
  return { ...server, botId: id, botAccessKey: key.value };
}

/**
 * Indexes each knowledge base into its bot, then asks every question of `set` (a choice offering the right
 * topic is picked in the same conversation) and scores the replies; each scored question is appended to
 * `dump` as a JSON line when given.
 */
export async function askVisitorSet(
  server: ParleyServer,
  owner: Owner,
  set: VisitorSet,
  build: string,
  dump: string | undefined,
): Promise<ScoredQuestion[]> {
  const bots = new Map<string, ParleyServer>();
  for (const { name: kb, title } of set.bases) {
    const bot = await botFor(server, owner, kb, title);
    bots.set(kb, bot);
    const docs = set.documents
      .filter((d) => d.kb === kb)
      .map((d) => ({ key: d.key, contentType: d.contentType, bytes: () => documentBytes(d) }));
    await indexDocuments(bot, docs, `${kb.padEnd(8)}`);
  }
  const scored: ScoredQuestion[] = [];
  for (const question of set.questions) {
    const bot = bots.get(question.kb) as ParleyServer;
    const session = await openChat(server.url, bot.botId, owner);
    const reply = await say(session, question.text);
    const s = await scoreQuestion(question, reply, (choice) => say(session, choice.label, choice.value));
    scored.push(s);
    if (dump) await appendFile(dump, `${JSON.stringify({ set: 'visitors', build, ...s })}\n`);
  }
  return scored;
}

/** `n of total (p %)`, or `-` for an empty group. */
export const share = (n: number, total: number) =>
  total === 0 ? '-' : `${n}/${total} (${Math.round((100 * n) / total)} %)`;

/** The visitor set's table: per split and group, right, clarified, not found, noise, honest, p50 and p95. */
export function visitorTable(rows: ReadonlyArray<VisitorFigures & { build: string }>): string {
  return table([
    [
      'split',
      'build',
      'questions',
      'right',
      'clarified',
      'right or clarified',
      '"not found"',
      'noise replies',
      'honest "not found"',
      'reply p50 ms',
      'reply p95 ms',
    ],
    ...rows.map((r) => {
      const answerable = r.group !== 'unanswerable' && r.group !== 'all';
      const unanswerable = r.group === 'unanswerable';
      return [
        r.split,
        r.build,
        `${r.group} ${r.questions}`,
        answerable ? share(r.right, r.questions) : '',
        answerable ? share(r.clarified, r.questions) : '',
        answerable ? share(r.right + r.clarified, r.questions) : '',
        share(r.notFound, r.questions),
        share(r.noise, r.questions),
        unanswerable ? share(r.honest, r.questions) : '',
        r.p50.toFixed(0),
        r.p95.toFixed(0),
      ];
    }),
  ]);
}

/** The report rows of scored questions, labelled with their build. */
export const visitorRows = (scored: readonly ScoredQuestion[], build: string) =>
  reportRows(scored).map((r) => ({ ...r, build }));
