import { operations } from './operation.js';

/** The file records part of the Files API: one entry per method of `FilesApi`. */
export const FILE_OPERATIONS = /* @__PURE__ */ operations('files', {
  upsertFile: 'PUT /v1/files',
  listFiles: 'GET /v1/files',
  getFile: 'GET /v1/files/{id}',
  updateFileMetadata: 'PUT /v1/files/{id}',
  deleteFile: 'DELETE /v1/files/{id}',
  copyFile: {
    method: 'POST',
    path: '/v1/files/{id}/{destinationKey}',
    headers: { 'x-destination-bot-id': 'destinationBotId' },
  },
  listFileTags: 'GET /v1/files/tags',
  listFileTagValues: 'GET /v1/files/tags/{tag}/values',
  searchFiles: 'GET /v1/files/search',
  listFilePassages: 'GET /v1/files/{id}/passages',
  setFilePassages: 'PUT /v1/files/{id}/passages',
  reindexFile: { method: 'PUT', path: '/v1/files/{id}/index', noBody: true },
});

/** The knowledge bases part of the Files API: one entry per method of `KnowledgeBasesApi`. */
export const KNOWLEDGE_BASE_OPERATIONS = /* @__PURE__ */ operations('files', {
  listKnowledgeBases: 'GET /v1/files/knowledge-bases',
  createKnowledgeBase: 'POST /v1/files/knowledge-bases',
  getKnowledgeBase: 'GET /v1/files/knowledge-bases/{id}',
  updateKnowledgeBase: 'PUT /v1/files/knowledge-bases/{id}',
  deleteKnowledgeBase: 'DELETE /v1/files/knowledge-bases/{id}',
  listKnowledgeBaseFiles: 'GET /v1/files/knowledge-bases/{id}/files',
  linkKnowledgeBaseFile: {
    method: 'PUT',
    path: '/v1/files/knowledge-bases/{id}/files/{fileId}',
    noBody: true,
  },
  unlinkKnowledgeBaseFile: 'DELETE /v1/files/knowledge-bases/{id}/files/{fileId}',
  createKnowledgeSource: 'POST /v1/files/knowledge-bases/{id}/sources',
  listKnowledgeSources: 'GET /v1/files/knowledge-bases/{id}/sources',
  getKnowledgeSource: 'GET /v1/files/knowledge-bases/{id}/sources/{sourceId}',
  syncKnowledgeSource: {
    method: 'POST',
    path: '/v1/files/knowledge-bases/{id}/sources/{sourceId}/sync',
    noBody: true,
  },
  stopKnowledgeSource: {
    method: 'POST',
    path: '/v1/files/knowledge-bases/{id}/sources/{sourceId}/stop',
    noBody: true,
  },
  deleteKnowledgeSource: 'DELETE /v1/files/knowledge-bases/{id}/sources/{sourceId}',
});
