import { randomUUID } from 'node:crypto';
import { monotonicFactory } from 'ulidx';

const ulid = monotonicFactory();

/** Prefixes of the sortable ids the service hands out. */
export type IdPrefix =
  | 'wkspace'
  | 'user'
  | 'member'
  | 'tok'
  | 'int'
  | 'audit'
  | 'log'
  | 'inv'
  | 'file'
  | 'job'
  | 'kb'
  | 'cuser'
  | 'conv'
  | 'msg'
  | 'evt'
  | 'whevt';

/** A new prefixed, time-sortable id such as `wkspace_01K86…`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

/** A new bot id (UUID-like, as the public service uses). */
export function newBotId(): string {
  return randomUUID();
}
