/* Row types of the platform's own records: the audit trail, request logs, the job queue and meta keys.
 * Timestamps are ISO 8601 text; booleans are 0/1. */

export interface AuditRecordsTable {
  id: string;
  workspace_id: string;
  recorded_at: string;
  account_id: string | null;
  account_email: string | null;
  action: string;
  resource_id: string | null;
  resource_name: string | null;
  value: string | null;
}

export interface RequestLogsTable {
  id: string;
  bot_id: string;
  timestamp: string;
  level: string;
  message: string;
  request_id: string;
  operation_id: string | null;
  method: string;
  path: string;
  status_code: number;
  duration_ms: number;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  /** queued → running → done | failed (running again after a lost lease). */
  status: string;
  attempts: number;
  run_after: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetaTable {
  key: string;
  value: string;
}
