import {
  Empty,
  ListQaEntriesQuery,
  ListQaEntriesResponse,
  QaEntryFields,
  QaEntryResponse,
} from '@parley/protocol';
import { BOT_OPERATIONS } from '@parley/protocol/operations';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import Type from 'typebox';
import { ADMIN_SECURITY, operations } from '../../http/operation.js';
import { empty, IdParam, pageBody } from '../../http/route-helpers.js';
import type { QaService } from './contract.js';

const EntryParams = Type.Object({
  id: IdParam.properties.id,
  entryId: Type.String({ minLength: 1, maxLength: 100 }),
});

/** A bot's Q&A entries under `/v1/admin/bots/{id}/qa`: thin handlers over the Q&A service. */
export function qaRoutes(
  app: FastifyInstance,
  deps: { qa: QaService; toBotLog: preValidationAsyncHookHandler },
): void {
  const { qa } = deps;
  const op = operations(app, { tags: ['bots'], security: ADMIN_SECURITY, preValidation: deps.toBotLog });

  op(
    BOT_OPERATIONS.listQaEntries,
    {
      description:
        "A bot's Q&A entries, oldest first, in pages; `search` narrows to entries whose wordings, answer or tags hold the text (case aside). Viewers and above.",
      params: IdParam,
      query: ListQaEntriesQuery,
      response: ListQaEntriesResponse,
    },
    async (req) => pageBody('entries', await qa.list(req.actor, req.params.id, req.query)),
  );

  op(
    BOT_OPERATIONS.createQaEntry,
    {
      description:
        "Adds a Q&A entry: a visitor question close to one of its wordings (by words, or by meaning with the built-in embedder) is answered with its answer before any passage search. Developers and above; 403 QuotaExceeded past the bot's limit; 400 for an answer linking elsewhere than http(s), mailto: or tel:.",
      params: IdParam,
      body: QaEntryFields,
      status: 201,
      response: QaEntryResponse,
    },
    async (req) => ({ entry: await qa.create(req.actor, req.params.id, req.body) }),
  );

  op(BOT_OPERATIONS.getQaEntry, { params: EntryParams, response: QaEntryResponse }, async (req) => ({
    entry: await qa.get(req.actor, req.params.id, req.params.entryId),
  }));

  op(
    BOT_OPERATIONS.updateQaEntry,
    {
      description:
        "Replaces a Q&A entry's wordings and answer; `tags`, `enabled` and `knowledgeBaseId` keep their values when absent. Developers and above.",
      params: EntryParams,
      body: QaEntryFields,
      response: QaEntryResponse,
    },
    async (req) => ({
      entry: await qa.update(req.actor, req.params.id, req.params.entryId, req.body),
    }),
  );

  op(BOT_OPERATIONS.deleteQaEntry, { params: EntryParams, response: Empty }, async (req) =>
    empty(qa.delete(req.actor, req.params.id, req.params.entryId)),
  );
}
