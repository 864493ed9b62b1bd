import { type MessageKey, t } from '../../i18n.js';

/** The actions the audit trail records (the server's AuditAction), with their words for people (catalog keys). */
export const AUDIT_ACTIONS: ReadonlyArray<{ value: string; label: MessageKey }> = [
  { value: 'CREATE_WORKSPACE', label: 'auditAction.CREATE_WORKSPACE' },
  { value: 'UPDATE_WORKSPACE', label: 'auditAction.UPDATE_WORKSPACE' },
  { value: 'ADD_WORKSPACE_MEMBER', label: 'auditAction.ADD_WORKSPACE_MEMBER' },
  { value: 'UPDATE_WORKSPACE_MEMBER', label: 'auditAction.UPDATE_WORKSPACE_MEMBER' },
  { value: 'REMOVE_WORKSPACE_MEMBER', label: 'auditAction.REMOVE_WORKSPACE_MEMBER' },
  { value: 'ACCEPT_WORKSPACE_INVITATION', label: 'auditAction.ACCEPT_WORKSPACE_INVITATION' },
  { value: 'RENEW_WORKSPACE_INVITATION', label: 'auditAction.RENEW_WORKSPACE_INVITATION' },
  { value: 'CREATE_BOT', label: 'auditAction.CREATE_BOT' },
  { value: 'UPDATE_BOT', label: 'auditAction.UPDATE_BOT' },
  { value: 'DELETE_BOT', label: 'auditAction.DELETE_BOT' },
  { value: 'UPDATE_BOT_WEBCHAT', label: 'auditAction.UPDATE_BOT_WEBCHAT' },
  { value: 'CREATE_BOT_ACCESS_KEY', label: 'auditAction.CREATE_BOT_ACCESS_KEY' },
  { value: 'REVOKE_BOT_ACCESS_KEY', label: 'auditAction.REVOKE_BOT_ACCESS_KEY' },
  { value: 'CREATE_INTEGRATION', label: 'auditAction.CREATE_INTEGRATION' },
  { value: 'DELETE_INTEGRATION', label: 'auditAction.DELETE_INTEGRATION' },
  { value: 'INSTALL_INTEGRATION', label: 'auditAction.INSTALL_INTEGRATION' },
  { value: 'UNINSTALL_INTEGRATION', label: 'auditAction.UNINSTALL_INTEGRATION' },
  { value: 'CREATE_INTEGRATION_KEY', label: 'auditAction.CREATE_INTEGRATION_KEY' },
  { value: 'REVOKE_INTEGRATION_KEY', label: 'auditAction.REVOKE_INTEGRATION_KEY' },
  { value: 'CREATE_QA_ENTRY', label: 'auditAction.CREATE_QA_ENTRY' },
  { value: 'UPDATE_QA_ENTRY', label: 'auditAction.UPDATE_QA_ENTRY' },
  { value: 'DELETE_QA_ENTRY', label: 'auditAction.DELETE_QA_ENTRY' },
  { value: 'UPDATE_CONVERSATION_HANDOFF', label: 'auditAction.UPDATE_CONVERSATION_HANDOFF' },
  { value: 'CREATE_KNOWLEDGE_BASE', label: 'auditAction.CREATE_KNOWLEDGE_BASE' },
  { value: 'UPDATE_KNOWLEDGE_BASE', label: 'auditAction.UPDATE_KNOWLEDGE_BASE' },
  { value: 'DELETE_KNOWLEDGE_BASE', label: 'auditAction.DELETE_KNOWLEDGE_BASE' },
  { value: 'UPLOAD_FILE', label: 'auditAction.UPLOAD_FILE' },
  { value: 'UPDATE_FILE', label: 'auditAction.UPDATE_FILE' },
  { value: 'DELETE_FILE', label: 'auditAction.DELETE_FILE' },
];

/** An action in words (its code when unknown). */
export function actionLabel(action: string): string {
  const label = AUDIT_ACTIONS.find((a) => a.value === action)?.label;
  return label ? t(label) : action;
}

/** The actions as choices of a filter, in the Console's language. */
export const actionChoices = (): { value: string; label: string }[] =>
  AUDIT_ACTIONS.map((a) => ({ value: a.value, label: t(a.label) }));
