import { describe, expect, it } from 'vitest';
import { useLanguage } from '../../test-language.js';
import { actionLabel } from './audit-actions.js';
import { type AuditNames, describeValue } from './audit-words.js';

const names: AuditNames = {
  member: (id) => (id === 'acc_jane' ? 'Jane Doe' : undefined),
  bot: (id) => (id === 'bot_1' ? 'Helpdesk' : undefined),
};
const size = (bytes: number) => `${bytes} B`;
const say = (value: unknown) =>
  describeValue({ value: typeof value === 'string' ? value : JSON.stringify(value) }, names, size);

describe('describeValue', () => {
  it('says a role change and an invitation in words, not JSON', () => {
    expect(say({ from: 'developer', to: 'viewer' })).toBe('changed role from developer to viewer');
    expect(say({ role: 'viewer' })).toBe('role viewer');
  });

  it('says a handoff change with its states and the person, by name', () => {
    expect(say({ from: 'pending', to: 'assigned', assignedTo: 'acc_jane' })).toBe(
      'from “waiting for a person” to “a person answers”, assigned to Jane Doe',
    );
  });

  it('says knowledge base and file changes, and the bot they were in, by name', () => {
    expect(say({ botId: 'bot_1', previousName: 'Manuals' })).toBe('renamed from “Manuals”, in Helpdesk');
    expect(say({ botId: 'bot_1', size: 12, replaced: true })).toBe('replaced, 12 B, in Helpdesk');
    expect(say({ botId: 'bot_x', tags: { topic: 'setup', old: null } })).toBe(
      'tags topic=setup, old removed, in a bot',
    );
    expect(say({ botId: 'bot_1', fields: ['accessPolicies', 'expiresAt'] })).toBe(
      'changed its access, expiry, in Helpdesk',
    );
    expect(say({ botId: 'bot_1', questions: ['When are you open?'] })).toBe(
      'questions “When are you open?”, in Helpdesk',
    );
  });

  it('names the fields of a settings update, says text as it is, and nothing for no value', () => {
    expect(say({ name: 'Acme', about: 'Support' })).toBe('changed name, about');
    expect(say({ status: 'disabled' })).toBe('disabled');
    expect(say('plain words')).toBe('plain words');
    expect(describeValue({}, names, size)).toBe('');
  });

  describe('in French', () => {
    useLanguage('fr', 'fr-FR');

    it('names the action and says the change in French words, the names and tags as they are', () => {
      expect(actionLabel('UPDATE_WORKSPACE_MEMBER')).toBe('Rôle d’un membre modifié');
      expect(actionLabel('SOMETHING_NEW')).toBe('SOMETHING_NEW');
      expect(say({ from: 'developer', to: 'viewer' })).toBe('rôle changé de développeur à lecteur');
      expect(say({ from: 'pending', to: 'assigned', assignedTo: 'acc_x' })).toBe(
        'de « attend une personne » à « une personne répond », confiée à un membre',
      );
      expect(say({ botId: 'bot_1', previousName: 'Manuals' })).toBe(
        'renommé, auparavant « Manuals », dans Helpdesk',
      );
      expect(say({ botId: 'bot_x', tags: { topic: 'setup', old: null } })).toBe(
        'étiquettes topic=setup, old retirée, dans un bot',
      );
      expect(say({ fields: ['accessPolicies'] })).toBe('a modifié : accès');
    });
  });
});
