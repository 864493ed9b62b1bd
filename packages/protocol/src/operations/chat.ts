import { operations } from './operation.js';

/** The rule of the chat operations under `/conversations/{id}`: the input names that id `conversationId`. */
const CONVERSATION_IN_PATH = { from: { id: 'conversationId' } } as const;

/** The Chat API of one bot (`/v1/chat/{botId}`; the chat client fills `botId`): one entry per method of `ChatClient`. */
export const CHAT_OPERATIONS = /* @__PURE__ */ operations('chat', {
  createUser: { method: 'POST', path: '/v1/chat/{botId}/users', auth: 'none' },
  getOrCreateUser: { method: 'POST', path: '/v1/chat/{botId}/users/get-or-create', auth: 'none' },
  getUser: 'GET /v1/chat/{botId}/users/me',
  updateUser: 'PUT /v1/chat/{botId}/users/me',
  deleteUser: 'DELETE /v1/chat/{botId}/users/me',
  createConversation: 'POST /v1/chat/{botId}/conversations',
  getOrCreateConversation: 'POST /v1/chat/{botId}/conversations/get-or-create',
  listConversations: 'GET /v1/chat/{botId}/conversations',
  getConversation: 'GET /v1/chat/{botId}/conversations/{id}',
  deleteConversation: 'DELETE /v1/chat/{botId}/conversations/{id}',
  listMessages: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/messages',
    ...CONVERSATION_IN_PATH,
  },
  createMessage: 'POST /v1/chat/{botId}/messages',
  getMessage: 'GET /v1/chat/{botId}/messages/{id}',
  deleteMessage: 'DELETE /v1/chat/{botId}/messages/{id}',
  setMessageFeedback: 'PUT /v1/chat/{botId}/messages/{id}/feedback',
  createEvent: 'POST /v1/chat/{botId}/events',
  getEvent: 'GET /v1/chat/{botId}/events/{id}',
  listParticipants: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/participants',
    ...CONVERSATION_IN_PATH,
  },
  addParticipant: {
    method: 'POST',
    path: '/v1/chat/{botId}/conversations/{id}/participants',
    ...CONVERSATION_IN_PATH,
  },
  getParticipant: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}',
    ...CONVERSATION_IN_PATH,
  },
  removeParticipant: {
    method: 'DELETE',
    path: '/v1/chat/{botId}/conversations/{id}/participants/{userId}',
    ...CONVERSATION_IN_PATH,
  },
  createFile: 'POST /v1/chat/{botId}/files',
  listen: {
    method: 'GET',
    path: '/v1/chat/{botId}/conversations/{id}/listen',
    operationId: 'chat.listenConversation',
  },
});

/** The links bot answers carry for people to open in a browser; no client method sends them. */
export const CHAT_LINK_OPERATIONS = /* @__PURE__ */ operations('chat', {
  openMessageSource: {
    method: 'GET',
    path: '/v1/chat/{botId}/messages/{id}/sources/{n}',
    auth: 'none',
  },
});

/** The webchat script's own API, read by browsers embedding the chat. */
export const WEBCHAT_OPERATIONS = /* @__PURE__ */ operations('webchat', {
  getConfiguration: 'GET /webchat/v1/bots/{botId}/config',
});
