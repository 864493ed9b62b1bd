import { describe, expect, it, vi } from 'vitest';
import { createEmitter } from './emitter.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('webchat event emitter', () => {
  it('delivers an event to its handlers and to `*` with its type', () => {
    const e = createEmitter();
    const message = vi.fn();
    const any = vi.fn();
    e.on('message', message);
    e.on('*', any);
    e.emit('message', { id: 'm1' });
    expect(message).toHaveBeenCalledWith({ id: 'm1' });
    expect(any).toHaveBeenCalledWith({ type: 'message', data: { id: 'm1' } });
  });

  it('stops delivering once the returned function is called, for that subscription only', () => {
    const e = createEmitter();
    const handler = vi.fn();
    const off = e.on('webchat:opened', handler);
    const off2 = e.on('webchat:opened', handler);
    off();
    e.emit('webchat:opened', {});
    expect(handler).toHaveBeenCalledTimes(1);
    off2();
    e.emit('webchat:opened', {});
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('replays sticky lifecycle events to late handlers asynchronously, once', async () => {
    const e = createEmitter();
    e.emit('webchat:initialized', {});
    e.emit('webchat:ready', { conversationId: 'c1' });
    e.emit('webchat:ready', { conversationId: 'c2' });
    const ready = vi.fn();
    const any = vi.fn();
    e.on('webchat:ready', ready);
    e.on('*', any);
    expect(ready).not.toHaveBeenCalled();
    await tick();
    expect(ready).toHaveBeenCalledTimes(1);
    expect(ready).toHaveBeenCalledWith({ conversationId: 'c1' });
    expect(any.mock.calls.map((c) => c[0].type).sort()).toEqual(['webchat:initialized', 'webchat:ready']);
    expect(e.has('webchat:ready')).toBe(true);
  });

  it('does not replay to a handler removed before the microtask runs', async () => {
    const e = createEmitter();
    e.emit('webchat:initialized', {});
    const handler = vi.fn();
    e.on('webchat:initialized', handler)();
    await tick();
    expect(handler).not.toHaveBeenCalled();
  });

  it('does not make opened/closed sticky', async () => {
    const e = createEmitter();
    e.emit('webchat:opened', {});
    const handler = vi.fn();
    e.on('webchat:opened', handler);
    await tick();
    expect(handler).not.toHaveBeenCalled();
  });

  it('keeps calling the other handlers when one throws, and rejects unknown types and non-functions', () => {
    const e = createEmitter();
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const after = vi.fn();
    e.on('error', () => {
      throw new Error('boom');
    });
    e.on('error', after);
    e.emit('error', new Error('x'));
    expect(after).toHaveBeenCalled();
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
    expect(() => e.on('nope', () => undefined)).toThrow(/unknown event type/);
    expect(() => e.on('message', 'x' as never)).toThrow(/handler must be a function/);
  });
});
