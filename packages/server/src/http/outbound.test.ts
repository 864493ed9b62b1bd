import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedAddressError, isPrivateAddress, outboundFetch } from './outbound.js';

describe('isPrivateAddress', () => {
  for (const { name, addresses, private: expected } of [
    {
      name: 'knows loopback, private, link-local, CGNAT, multicast and reserved addresses, v4 and v6',
      addresses: [
        '127.0.0.1',
        '10.1.2.3',
        '172.16.0.1',
        '172.31.255.255',
        '192.168.1.1',
        '169.254.169.254',
        '100.64.0.1',
        '0.0.0.0',
        '224.0.0.1',
        '255.255.255.255',
        '::1',
        '::',
        'fd00::1',
        'fe80::1',
        '::ffff:127.0.0.1',
        '::ffff:10.0.0.1',
      ],
      private: true,
    },
    {
      name: 'lets public addresses through',
      addresses: ['1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'],
      private: false,
    },
  ])
    it(name, () => {
      for (const address of addresses) expect(isPrivateAddress(address), address).toBe(expected);
    });

  it('treats anything that is not an IP address as private (never connect on a guess)', () => {
    expect(isPrivateAddress('localhost')).toBe(true);
  });
});

describe('outboundFetch', () => {
  let server: Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reaches any address when private addresses are allowed (the default)', async () => {
    const res = await outboundFetch({ blockPrivate: false })(`http://127.0.0.1:${port}/`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('ok');
  });

  it('refuses a private IP literal before connecting', async () => {
    const before = hits;
    await expect(
      outboundFetch({ blockPrivate: true })(`http://127.0.0.1:${port}/`, { method: 'POST' }),
    ).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(
      outboundFetch({ blockPrivate: true })(`http://[::1]:${port}/`, { method: 'POST' }),
    ).rejects.toBeInstanceOf(BlockedAddressError);
    expect(hits).toBe(before);
  });

  it('refuses a name that resolves to a private address, in the connection’s own lookup', async () => {
    const before = hits;
    const error = await outboundFetch({ blockPrivate: true })(`http://localhost:${port}/`, {
      method: 'POST',
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    const cause = (error as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(BlockedAddressError);
    expect((cause as Error).message).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a private address/);
    expect(hits).toBe(before);
  });
});
