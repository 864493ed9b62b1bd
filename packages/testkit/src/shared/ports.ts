import { createServer } from 'node:net';

// Linux hands out 32768–60999 to outgoing connections (ip_local_port_range): a port the OS picked from that range,
// released for a server to bind a moment later, can meanwhile become the local end of some test's outgoing request
// (a CI run failed so: EADDRINUSE). Ports are therefore drawn below that range, where no connection lands.
const LOW = 20_000;
const HIGH = 32_000;

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.unref();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const address = probe.address();
      const bound = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(bound || undefined));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now (bound, then released): drawn at random below the
 * range of outgoing connections' ports, or else one the OS picks.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await tryListen(LOW + Math.floor(Math.random() * (HIGH - LOW)));
    if (port) return port;
  }
  const port = await tryListen(0);
  if (!port) throw new Error('no free TCP port on 127.0.0.1');
  return port;
}
