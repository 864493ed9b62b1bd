import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { ApiError } from '../../../server/src/errors/errors.js';

/** A wire error body as tests read it. */
export interface WireError {
  id: string;
  code: number;
  type: string;
  message: string;
  metadata?: { errors?: Array<{ field: string; message: string }> };
}

/** Asserts a wire error `{id, code, type, message}` with this status and type, and answers its body. */
export function expectError(res: LightMyRequestResponse, status: number, type: string): WireError {
  expect(res.statusCode).toBe(status);
  const body = res.json() as WireError;
  expect(body).toMatchObject({ code: status, type, message: expect.any(String) });
  expect(body.id).toMatch(/^err_\d{14}x[0-9a-f]{8}$/);
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

/** The fields a validation error names. */
export function badFields(body: WireError): string[] {
  return (body.metadata?.errors ?? []).map((e) => e.field);
}

/** The ApiError `fn` throws; fails the test when it throws something else or nothing (`what` says what was expected). */
export function thrownApiError(fn: () => unknown, what: string): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error(`expected ${what}`);
}
