import Type, { type Static } from 'typebox';
import { Timestamp } from './common.js';

/* Admin API shapes of what happened: a workspace's audit records and a bot's request log lines. */

/** One audit record: who did what to which resource, when. */
export const AuditRecord = Type.Object({
  id: Type.String(),
  recordedAt: Timestamp,
  userId: Type.Union([Type.String(), Type.Null()]),
  userEmail: Type.Optional(Type.String()),
  resourceId: Type.Union([Type.String(), Type.Null()]),
  resourceName: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  action: Type.String(),
});
/** Audit record type. */
export type AuditRecord = Static<typeof AuditRecord>;

/** One line of a bot's request log. */
export const LogEntry = Type.Object({
  id: Type.String(),
  timestamp: Timestamp,
  level: Type.Union([Type.Literal('info'), Type.Literal('warn'), Type.Literal('error')]),
  message: Type.String(),
  requestId: Type.String(),
  operationId: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  path: Type.String(),
  statusCode: Type.Integer(),
  durationMs: Type.Number(),
});
/** Log entry type. */
export type LogEntry = Static<typeof LogEntry>;
