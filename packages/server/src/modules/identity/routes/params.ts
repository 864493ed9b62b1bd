import { PageQuery } from '@parley/protocol';
import Type from 'typebox';

/** The `:id` of an identity resource (a token, a workspace, a member). */
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) });
/** The paging query of an identity list. */
export const Page = Type.Object(PageQuery);
