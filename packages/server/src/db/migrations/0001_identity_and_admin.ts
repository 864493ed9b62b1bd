import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('workspaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('owner_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('about', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('contact_email', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('members')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('members_workspace_email', ['workspace_id', 'email'])
      .execute();
    await db.schema.createIndex('members_account').on('members').column('account_id').execute();
    await db.schema
      .createTable('invitations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('member_id', 'text', (c) => c.notNull().references('members.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('bots')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('dev', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('reply_mode', 'text', (c) => c.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('webchat_config', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('deployed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('bots_workspace_created')
      .on('bots')
      .columns(['workspace_id', 'created_at', 'id'])
      .execute();
    await db.schema
      .createTable('bot_tags')
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('bot_tags_pk', ['bot_id', 'key'])
      .execute();
    await db.schema.createIndex('bot_tags_key_value').on('bot_tags').columns(['key', 'value']).execute();
    await db.schema
      .createTable('integrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('integrations_workspace_name', ['workspace_id', 'name'])
      .execute();
    await db.schema
      .createTable('installations')
      .addColumn('bot_id', 'text', (c) => c.notNull().references('bots.id').onDelete('cascade'))
      .addColumn('integration_id', 'text', (c) =>
        c.notNull().references('integrations.id').onDelete('cascade'),
      )
      .addColumn('installed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('installations_pk', ['bot_id', 'integration_id'])
      .execute();
    await db.schema
      .createTable('tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('hash', 'text', (c) => c.notNull().unique())
      .addColumn('account_id', 'text', (c) => c.references('accounts.id').onDelete('cascade'))
      .addColumn('bot_id', 'text', (c) => c.references('bots.id').onDelete('cascade'))
      .addColumn('integration_id', 'text', (c) => c.references('integrations.id').onDelete('cascade'))
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_used_at', 'text')
      .addColumn('expires_at', 'text')
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('tokens_account').on('tokens').column('account_id').execute();
    await db.schema.createIndex('tokens_bot').on('tokens').column('bot_id').execute();
    await db.schema
      .createTable('audit_records')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('recorded_at', 'text', (c) => c.notNull())
      .addColumn('account_id', 'text')
      .addColumn('account_email', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('resource_id', 'text')
      .addColumn('resource_name', 'text')
      .addColumn('value', 'text')
      .execute();
    await db.schema
      .createIndex('audit_workspace_id')
      .on('audit_records')
      .columns(['workspace_id', 'id'])
      .execute();
    await db.schema
      .createTable('request_logs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('bot_id', 'text', (c) => c.notNull())
      .addColumn('timestamp', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('request_id', 'text', (c) => c.notNull())
      .addColumn('operation_id', 'text')
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('status_code', 'integer', (c) => c.notNull())
      .addColumn('duration_ms', 'double precision', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('request_logs_bot_id').on('request_logs').columns(['bot_id', 'id']).execute();
    await db.schema.createIndex('request_logs_timestamp').on('request_logs').column('timestamp').execute();
    await db.schema
      .createTable('meta')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
  },
};
