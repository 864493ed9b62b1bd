import { createRequire } from 'node:module';
import type { FastifyDynamicSwaggerOptions, SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onReadyHookHandler,
  onRegisterHookHandler,
  onRouteHookHandler,
} from 'fastify';

const require = createRequire(import.meta.url);

/** The document function @fastify/swagger decorates an app with (`app.swagger()`). */
type DocumentFunction = FastifyInstance['swagger'];

/** Response headers of the docs app that the connection or this app's reply set themselves. */
const NOT_FORWARDED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/**
 * @fastify/swagger in its dynamic mode, registered now but loaded at the first `app.swagger()` call: it builds
 * the document from the routes it saw added (its `onRoute` hook) and the shared schemas of the plugin instances
 * (`onRegister`, then `onReady`). Those hooks are recorded here, from where the plugin would have been
 * registered, and replayed into the plugin when it loads, so the document is the one it would have built.
 */
function lazyDocument(app: FastifyInstance, options: FastifyDynamicSwaggerOptions): DocumentFunction {
  const routes: Parameters<onRouteHookHandler>[0][] = [];
  const instances: FastifyInstance[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  app.addHook('onRegister', (instance) => {
    instances.push(instance);
  });
  let document: DocumentFunction | undefined;
  const load = (): DocumentFunction => {
    const { fastifySwagger } = require('@fastify/swagger') as typeof import('@fastify/swagger');
    const onRoute: onRouteHookHandler[] = [];
    const onRegister: onRegisterHookHandler[] = [];
    const onReady: onReadyHookHandler[] = [];
    let built: DocumentFunction | undefined;
    const recorder = {
      addHook(name: string, hook: never) {
        if (name === 'onRoute') onRoute.push(hook);
        else if (name === 'onRegister') onRegister.push(hook);
        else if (name === 'onReady') onReady.push(hook);
        else throw new Error(`@fastify/swagger added an unexpected ${name} hook`);
      },
      decorate(_name: string, value: DocumentFunction) {
        built = value;
      },
      getSchemas: () => app.getSchemas(),
    };
    let failed: unknown;
    fastifySwagger(recorder as never, { ...options }, (error) => {
      failed = error;
    });
    if (failed) throw failed;
    for (const route of routes) for (const hook of onRoute) hook.call(app, route);
    for (const instance of instances) for (const hook of onRegister) void hook.call(app, instance, {});
    for (const hook of onReady)
      hook.call(app, (error) => {
        if (error) failed = error;
      });
    if (failed) throw failed;
    if (!built) throw new Error('@fastify/swagger did not give its document function');
    instances.length = 0;
    return built;
  };
  return ((opts?: { yaml?: boolean }) => {
    document ??= load();
    return opts ? document(opts as { yaml: boolean }) : document();
  }) as DocumentFunction;
}

/**
 * The browsable documentation (swagger-ui under `prefix`): its page, static files, `prefix/json` and
 * `prefix/yaml`, served by an app of their own made at the first request under `prefix` (with
 * @fastify/swagger-ui, @fastify/static and the document as @fastify/swagger's static document). Requests are
 * passed to it whole (`inject`) and its answers sent as they are; what it does not serve answers this app's 404.
 */
function lazyDocsUi(
  app: FastifyInstance,
  document: DocumentFunction,
  ui: FastifySwaggerUiOptions & { routePrefix: string },
): void {
  let docsApp: Promise<FastifyInstance> | undefined;
  const makeDocsApp = async () => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ]);
    const docs = Fastify({ logger: false });
    await docs.register(swagger, { mode: 'static', specification: { document: document() as never } });
    await docs.register(swaggerUi, ui);
    await docs.ready();
    return docs;
  };
  const forward = async (req: FastifyRequest, reply: FastifyReply) => {
    docsApp ??= makeDocsApp().catch((error: unknown) => {
      docsApp = undefined;
      throw error;
    });
    const answer = await (await docsApp).inject({
      // A HEAD request is answered from the GET's answer here, as for every GET route of this app.
      method: 'GET',
      url: req.url,
      headers: req.headers,
    });
    if (answer.statusCode === 404) return reply.callNotFound();
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !NOT_FORWARDED.has(name)) reply.header(name, value);
    reply.status(answer.statusCode);
    // No body (a redirect, 304): none sent, so no content type is added to it either.
    return answer.rawPayload.length === 0 ? reply.send() : reply.send(answer.rawPayload);
  };
  app.get(ui.routePrefix, { schema: { hide: true } }, forward);
  app.get(`${ui.routePrefix}/*`, { schema: { hide: true } }, forward);
}

/**
 * The OpenAPI document (`app.swagger()`, served at `/openapi.json` with the health checks) and its browsable
 * form (swagger-ui at `ui.routePrefix`), loading @fastify/swagger and @fastify/swagger-ui (with yaml,
 * @fastify/static and glob) at their first use instead of at start: ~2 MB of an idle server's heap
 * (docs/benchmarks/files-transfer.md). Call it where `app.register(swagger)` would be: the document describes
 * the routes added after.
 */
export function installApiDocs(
  app: FastifyInstance,
  options: Exclude<SwaggerOptions, { mode: 'static' }>,
  ui: FastifySwaggerUiOptions & { routePrefix: string },
): void {
  const document = lazyDocument(app, options);
  app.decorate('swagger', document);
  lazyDocsUi(app, document, ui);
}
