import { fillPath, operations } from '@parley/protocol/operations';
import { describe, expect, it } from 'vitest';
import { Api, composeApis, RequestCore, transportOf } from './core.js';
import type { PagePromise } from './pagination.js';

describe('the request core', () => {
  it('fills a path template with each value encoded as one segment, and refuses an empty value', () => {
    expect(fillPath('/v1/files/{id}/{destinationKey}', { id: 'docs/a b.pdf', destinationKey: 'x?y' })).toBe(
      '/v1/files/docs%2Fa%20b.pdf/x%3Fy',
    );
    expect(() => fillPath('/v1/admin/bots/{id}', { id: '' })).toThrow(TypeError);
    expect(() => fillPath('/v1/admin/bots/{id}', {})).toThrow(
      /Path parameter id of \/v1\/admin\/bots\/\{id\}/,
    );
  });

  it('names each operation <api>.<method> unless the table gives its own id', () => {
    const table = operations('admin', {
      getBot: { method: 'GET', path: '/v1/admin/bots/{id}' },
      addMember: { method: 'POST', path: '/v1/admin/workspace-members', operationId: 'admin.createMember' },
    });
    expect(table.getBot.operationId).toBe('admin.getBot');
    expect(table.addMember.operationId).toBe('admin.createMember');
  });

  it('rejects the page promise, not the call, when a path parameter is missing', async () => {
    const core = new RequestCore(transportOf({}, 'http://127.0.0.1:9', {}), {});
    const op = operations('files', { listFilePassages: { method: 'GET', path: '/v1/files/{id}/passages' } });
    type Page = { passages: string[]; meta: { nextToken?: string } };
    const page: PagePromise<Page, string> = core.page(
      op.listFilePassages,
      undefined,
      { params: { id: '' }, query: {} },
      'passages',
    );
    await expect(page).rejects.toThrow(TypeError);
  });

  it('composes API classes into one, with their inherited methods, and refuses two APIs with one name', () => {
    class Base extends Api {
      ping() {
        return 'ping';
      }
    }
    class Derived extends Base {
      pong() {
        return this.ping() === 'ping' ? 'pong' : 'no';
      }
    }
    class Other extends Api {
      ping() {
        return 'other';
      }
    }
    const Composed = composeApis(Derived);
    const api = new Composed(new RequestCore(transportOf({}, 'http://127.0.0.1:9', {}), {}));
    expect([api.ping(), api.pong()]).toEqual(['ping', 'pong']);
    expect(() => composeApis(Derived, Other)).toThrow(/Two APIs define ping/);
  });
});
