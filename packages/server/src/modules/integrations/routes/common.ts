import Type from 'typebox';
import { ADMIN_SECURITY } from '../../../http/operation.js';

/** What the integrations operations share: their tag and the Admin API's security. */
export const defaults = { tags: ['integrations'], security: ADMIN_SECURITY };
/** An id in an integrations path. */
export const Id = Type.String({ minLength: 1, maxLength: 100 });
/** The `:id` of an integration or a bot. */
export const IdParam = Type.Object({ id: Id });
/** A bot's `:id` and the `:integrationId` installed on it. */
export const InstallationParams = Type.Object({ id: Id, integrationId: Id });
/** An installation's params and the `:keyId` of one of its keys. */
export const KeyParams = Type.Object({ id: Id, integrationId: Id, keyId: Id });
