import type { ListQaEntriesResponse, QaEntry, QaEntryFields, QaEntryResponse } from '../../index.js';
import type { IdInput, PageInput } from './admin.js';

/** A Q&A entry of a bot: wordings of a question and the answer the bot gives to them, before any search. */
export type BotQaEntry = QaEntry;
/** The fields of a Q&A entry a caller writes. */
export type BotQaEntryFields = QaEntryFields;
/** Input of listQaEntries: the bot, a page, and the filters. */
export type ListQaEntriesInput = IdInput &
  PageInput & {
    /** Only entries whose wordings, answer or tags hold this text (case aside). */
    search?: string | undefined;
    enabled?: boolean | undefined;
    knowledgeBaseId?: string | undefined;
  };
/** Answer of listQaEntries: a page, oldest first. */
export type ListQaEntriesPage = ListQaEntriesResponse;
/** Input of createQaEntry: the bot and the entry's fields. */
export type CreateQaEntryInput = IdInput & QaEntryFields;
/** Input of getQaEntry and deleteQaEntry: the bot and the entry. */
export type QaEntryInput = IdInput & { entryId: string };
/** Input of updateQaEntry: the bot, the entry and its new fields. */
export type UpdateQaEntryInput = QaEntryInput & QaEntryFields;
/** Answer of the operations on one entry. */
export type QaEntryAnswer = QaEntryResponse;
