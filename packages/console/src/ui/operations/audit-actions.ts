/** The actions the audit trail records (the server's AuditAction), with words for people. */
export const AUDIT_ACTIONS: ReadonlyArray<{ value: string; label: string }> = [
  { value: 'CREATE_WORKSPACE', label: 'Workspace created' },
  { value: 'UPDATE_WORKSPACE', label: 'Workspace settings changed' },
  { value: 'ADD_WORKSPACE_MEMBER', label: 'Member invited' },
  { value: 'UPDATE_WORKSPACE_MEMBER', label: 'Member role changed' },
  { value: 'REMOVE_WORKSPACE_MEMBER', label: 'Member removed' },
  { value: 'ACCEPT_WORKSPACE_INVITATION', label: 'Invitation accepted' },
  { value: 'RENEW_WORKSPACE_INVITATION', label: 'Invitation link renewed' },
  { value: 'CREATE_BOT', label: 'Bot created' },
  { value: 'UPDATE_BOT', label: 'Bot changed' },
  { value: 'DELETE_BOT', label: 'Bot deleted' },
  { value: 'UPDATE_BOT_WEBCHAT', label: 'Webchat changed' },
  { value: 'CREATE_BOT_ACCESS_KEY', label: 'Bot access key created' },
  { value: 'REVOKE_BOT_ACCESS_KEY', label: 'Bot access key revoked' },
  { value: 'CREATE_INTEGRATION', label: 'Integration created' },
  { value: 'DELETE_INTEGRATION', label: 'Integration deleted' },
  { value: 'INSTALL_INTEGRATION', label: 'Integration installed' },
  { value: 'UNINSTALL_INTEGRATION', label: 'Integration uninstalled' },
  { value: 'CREATE_INTEGRATION_KEY', label: 'Integration key created' },
  { value: 'REVOKE_INTEGRATION_KEY', label: 'Integration key revoked' },
  { value: 'CREATE_QA_ENTRY', label: 'Q&A entry added' },
  { value: 'UPDATE_QA_ENTRY', label: 'Q&A entry changed' },
  { value: 'DELETE_QA_ENTRY', label: 'Q&A entry deleted' },
  { value: 'UPDATE_CONVERSATION_HANDOFF', label: 'Conversation handed over' },
  { value: 'CREATE_KNOWLEDGE_BASE', label: 'Knowledge base created' },
  { value: 'UPDATE_KNOWLEDGE_BASE', label: 'Knowledge base changed' },
  { value: 'DELETE_KNOWLEDGE_BASE', label: 'Knowledge base deleted' },
  { value: 'UPLOAD_FILE', label: 'File uploaded' },
  { value: 'UPDATE_FILE', label: 'File changed' },
  { value: 'DELETE_FILE', label: 'File deleted' },
];

/** An action in words (its code when unknown). */
export function actionLabel(action: string): string {
  return AUDIT_ACTIONS.find((a) => a.value === action)?.label ?? action;
}
