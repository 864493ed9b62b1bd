import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Puts the caller of an API surface on its requests as `request[name]` (declare its type on FastifyRequest):
 * `authenticate` runs before the body is read (a preParsing hook: an unauthenticated request is refused with
 * its body unread and unparsed) unless the route says
 * `config: { auth: 'none' }` or the request is a preflight. Reading `request[name]` where nobody was
 * authenticated is a programming error (500), never a silent undefined. Install once on the surface.
 * @example installSurfaceCaller(app, 'chatCaller', (req) => chat.authenticate(botIdOf(req), credentials(req)));
 */
export function installSurfaceCaller<C>(
  app: FastifyInstance,
  name: string,
  authenticate: (req: FastifyRequest) => Promise<C>,
): void {
  const callers = new WeakMap<FastifyRequest, C>();
  app.decorateRequest(name, {
    getter(this: FastifyRequest): C {
      const caller = callers.get(this);
      if (caller === undefined)
        throw new Error(`${this.routeOptions.url ?? this.url} reads request.${name} unauthenticated`);
      return caller;
    },
  } as never);
  app.addHook('preParsing', async (req) => {
    if (req.routeOptions.config?.auth === 'none' || req.method === 'OPTIONS') return;
    callers.set(req, await authenticate(req));
  });
}
