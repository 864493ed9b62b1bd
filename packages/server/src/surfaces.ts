import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config/config.js';
import { authenticate } from './http/context.js';
import { tokenApiCors } from './http/cors.js';
import { sessionTransport } from './http/session-cookie.js';
import { answerPreviewService } from './modules/answers/preview.js';
import { answerPreviewRoutes } from './modules/answers/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { botRoutes, markBot } from './modules/bots/routes.js';
import { DeskStreams } from './modules/chat/desk-stream.js';
import { chatAdminRoutes, chatRoutes } from './modules/chat/routes.js';
import { StreamRegistry } from './modules/chat/stream.js';
import { consoleRoutes } from './modules/console/routes.js';
import { consoleService } from './modules/console/service.js';
import { fileAdminRoutes, fileRoutes, installFilesAuth } from './modules/files/routes.js';
import { identityRoutes } from './modules/identity/routes.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { insightsService } from './modules/insights/service.js';
import { integrationRoutes } from './modules/integrations/routes.js';
import { knowledgeRoutes } from './modules/knowledge/routes.js';
import { logRoutes } from './modules/logs/routes.js';
import { qaRoutes } from './modules/qa/routes.js';
import { webchatRoutes } from './modules/webchat/routes.js';
import { webchatService } from './modules/webchat/service.js';
import type { Services } from './services.js';

/**
 * Largest Admin API request body: the spec's 50 MB. Only an authenticated caller's body is read (anonymous
 * routes take 16 kB), and what parsing costs is bounded by the values it holds (`MAX_JSON_VALUES`), not by
 * its bytes, so a large body cannot stall the process.
 */
export const ADMIN_BODY_LIMIT = 50 * 1024 * 1024;

/** What a surface is built from. */
interface SurfaceDeps {
  config: Config;
  services: Services;
}

/** A request without a body is an empty object, so operations whose fields are all optional accept a bare POST. */
function emptyBodyAsObject(surface: FastifyInstance): void {
  surface.addHook('preValidation', (req, _reply, done) => {
    if (req.body == null && req.routeOptions.schema?.body) req.body = {};
    done();
  });
}

/** The Admin API (`/v1/admin`): JSON only, 1 MB bodies, a token or a session cookie, x-workspace-id by default. */
async function adminSurface(admin: FastifyInstance, { config, services }: SurfaceDeps): Promise<void> {
  const auth = services.identity.resolver;
  await admin.register(cors, tokenApiCors(config.corsOrigins));
  // Session cookies (human sign-in) are read on the Admin and Files APIs (the Console uses both); Chat takes keys.
  await admin.register(cookie);
  admin.addHook('onRoute', (route) => {
    route.bodyLimit ??= ADMIN_BODY_LIMIT;
  });
  // Admin routes take JSON only: without this, Fastify's default text/plain parser lets a
  // text body through to validation (400) instead of answering 415 UnsupportedMediaType.
  admin.removeContentTypeParser('text/plain');
  // Required fields of a bare POST get named one by one.
  emptyBodyAsObject(admin);
  // Every Admin route acts in the workspace named by x-workspace-id unless it says otherwise.
  // A signed-in person's session cookie stands for their account where no Authorization header is sent.
  const sessions = sessionTransport(config.publicUrl, config.sessions.maxAgeMs);
  // Before the body is read: an anonymous request to an authenticated route is answered 401 unread.
  admin.addHook('preParsing', authenticate(auth, 'workspace', sessions));
  const preHandler = (req: Parameters<typeof markBot>[0]) => markBot(req, services.bots, auth);
  identityRoutes(admin, { identity: services.identity, sessions });
  botRoutes(admin, { bots: services.bots, auth });
  integrationRoutes(admin, { integrations: services.integrations, preHandler });
  auditRoutes(admin, { audit: services.audit });
  logRoutes(admin, { logs: services.logs });
  fileAdminRoutes(admin, { files: services.files });
  const desk = new DeskStreams();
  chatAdminRoutes(admin, {
    chat: services.chat,
    bus: services.bus,
    pingIntervalMs: config.chat.pingIntervalMs,
    desk,
  });
  // The inbox desk's live streams never end by themselves before their age: end them when the server closes.
  admin.addHook('preClose', async () => desk.closeAll());
  insightsRoutes(admin, {
    insights: insightsService({
      bots: services.bots,
      chat: services.chat,
      embedder: services.embedder,
      entries: services.qa,
    }),
  });
  answerPreviewRoutes(admin, {
    previews: answerPreviewService({ bots: services.bots, responder: services.responder }),
    toBotLog: preHandler,
  });
  qaRoutes(admin, { qa: services.qa, toBotLog: preHandler });
}

/** The Files API (`/v1/files`): a token acting on the bot named by x-bot-id; search and knowledge bases too. */
async function filesSurface(filesApi: FastifyInstance, { config, services }: SurfaceDeps): Promise<void> {
  await filesApi.register(cors, tokenApiCors(config.corsOrigins));
  filesApi.removeContentTypeParser('text/plain');
  await filesApi.register(cookie);
  installFilesAuth(filesApi, {
    files: services.files,
    auth: services.identity.resolver,
    sessions: sessionTransport(config.publicUrl, config.sessions.maxAgeMs),
  });
  knowledgeRoutes(filesApi, {
    files: services.files,
    search: services.search,
    passages: services.passages,
    knowledgeBases: services.knowledgeBases,
    websites: services.websites,
  });
  fileRoutes(filesApi, { files: services.files });
}

/** The Chat API (`/v1/chat`): JSON only (415 otherwise) within the app's 1 MB body limit; live streams bounded. */
async function chatSurface(app: FastifyInstance, { config, services }: SurfaceDeps): Promise<StreamRegistry> {
  const streams = new StreamRegistry({
    perUser: config.chat.maxStreamsPerUser,
    perBot: config.chat.maxStreamsPerBot,
    bufferBytes: config.chat.streamBufferBytes,
    stallMs: config.chat.streamStallMs,
    totalBufferBytes: config.chat.streamTotalBufferBytes,
  });
  await app.register(
    async (chatApi) => {
      chatApi.removeContentTypeParser('text/plain');
      emptyBodyAsObject(chatApi);
      chatRoutes(chatApi, {
        chat: services.chat,
        bus: services.bus,
        pingIntervalMs: config.chat.pingIntervalMs,
        streams,
        sources: services.sources,
      });
    },
    { prefix: '/v1/chat' },
  );
  // Live streams never end by themselves: end them before the server waits for its connections to close.
  app.addHook('preClose', async () => {
    streams.closeAll();
  });
  return streams;
}

/**
 * Mounts every public surface, each an encapsulated plugin with its own CORS, body parsing and auth hook:
 * the Admin API (`/v1/admin`), the Files API (`/v1/files`), the Chat API (`/v1/chat`), then the webchat's
 * files and hosted page, and the Console. Answers the Chat API's live streams (their count is a metric).
 */
export async function installSurfaces(
  app: FastifyInstance,
  deps: SurfaceDeps,
): Promise<{ streams: StreamRegistry }> {
  await app.register(async (admin) => adminSurface(admin, deps), { prefix: '/v1/admin' });
  await app.register(async (filesApi) => filesSurface(filesApi, deps), { prefix: '/v1/files' });
  const streams = await chatSurface(app, deps);
  // The embeddable webchat: its scripts, a bot's public configuration, the hosted chat page.
  webchatRoutes(app, {
    webchat: webchatService({ bots: deps.services.bots }),
    publicUrl: deps.config.publicUrl,
  });
  // The Console (packages/console's build): `/` redirects there; every /console/ address answers its page.
  consoleRoutes(app, { console: consoleService() });
  return { streams };
}
