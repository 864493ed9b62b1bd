// The Admin API of a bot's Q&A entries as the qa module's tests call it (issue 34).
import { expect } from 'vitest';
import { eventually } from '../shared/eventually.js';
import type { TestApp } from './harness.js';

export { eventually };

/** An entry as the Admin API returns it. */
export interface Entry {
  id: string;
  questions: string[];
  answer: string;
  tags: Record<string, string>;
  enabled: boolean;
  knowledgeBaseId?: string;
  embedded: boolean;
}

/** Two neighbouring rules of a bot's knowledge (working from home, from abroad), the second {@link ABROAD_ENTRY}'s answer. */
export const REMOTE_WORK_MD = `# Remote work

## Working from home

You may work from home up to 3 days a week.

## Working from abroad

You can work from another EU country for up to 20 working days a year.
`;

/** An entry whose answer is a rule of {@link REMOTE_WORK_MD}, worded unlike the questions its answer meets. */
export const ABROAD_ENTRY = {
  questions: ['can i work from spain for a bit'],
  answer: 'You can work from another EU country for up to **20 working days** a year.',
};

/** The Admin API of a bot's Q&A entries, with the bootstrap bot. */
export function qaCalls(t: TestApp) {
  const base = () => `/v1/admin/bots/${t.botId}/qa`;
  const create = async (body: unknown, call = t.asOwner): Promise<Entry> => {
    const res = await call('POST', base(), body);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { entry: Entry }).entry;
  };
  /** Whether the entry's wordings and answer have vectors of the current embedder. */
  const isEmbedded = async (id: string) =>
    ((await t.asOwner('GET', `${base()}/${id}`)).json() as { entry: Entry }).entry.embedded;
  /** Waits until the entry's wordings and answer are embedded by the `qa_embed` job (after a save). */
  const embedded = (id: string) => eventually(() => isEmbedded(id));
  return {
    base,
    create,
    isEmbedded,
    embedded,
    /** Saves an entry and waits until its wordings and answer are embedded. */
    async createEmbedded(body: unknown): Promise<Entry> {
      const entry = await create(body);
      await embedded(entry.id);
      return entry;
    },
    async preview(question: string) {
      const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/answer-preview`, { question });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { text: string; mode: string; found: boolean; debug?: Record<string, unknown> };
    },
  };
}
