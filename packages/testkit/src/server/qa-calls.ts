// The Admin API of a bot's Q&A entries as the qa module's tests call it (issue 34).
import { expect } from 'vitest';
import type { TestApp } from './harness.js';

export { eventually } from '../shared/eventually.js';

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

/** The Admin API of a bot's Q&A entries, with the bootstrap bot. */
export function qaCalls(t: TestApp) {
  const base = () => `/v1/admin/bots/${t.botId}/qa`;
  return {
    base,
    async create(body: unknown, call = t.asOwner): Promise<Entry> {
      const res = await call('POST', base(), body);
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { entry: Entry }).entry;
    },
    async preview(question: string) {
      const res = await t.asOwner('POST', `/v1/admin/bots/${t.botId}/answer-preview`, { question });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { text: string; mode: string; found: boolean; debug?: Record<string, unknown> };
    },
  };
}
