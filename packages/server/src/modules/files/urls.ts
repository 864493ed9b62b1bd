import type { FileActor } from '../../access/file-policy.js';
import type { UrlSigner } from '../../access/signed-url.js';
import { errors } from '../../errors/errors.js';
import type { FilesSettings } from './contract.js';
import type { FileRow } from './repo.js';

/** What the URLs of files are made with. */
export interface UrlDeps {
  signer: UrlSigner;
  settings: Pick<FilesSettings, 'publicUrl' | 'downloadUrlTtlMs' | 'uploadUrlTtlMs'>;
}

/** The path a file's content downloads from. */
export const contentPath = (id: string): string => `/v1/files/${id}/content`;
/** The path a file's bytes are uploaded to. */
export const uploadPath = (id: string): string => `/v1/files/${id}/upload`;

function urlOf(deps: UrlDeps, path: string, params: Record<string, string>): string {
  return `${deps.settings.publicUrl}${path}?${new URLSearchParams(params).toString()}`;
}

/** Whether the file's current access policies make its content public. */
function isPublic(row: FileRow): boolean {
  return (JSON.parse(row.access_policies) as string[]).includes('public_content');
}

/**
 * The download URL: permanent for public_content, else signed and short-lived (new on every call). One
 * handed to an integration names it, so that it serves only bytes that integration may download.
 */
export function downloadUrl(deps: UrlDeps, row: FileRow, viewer?: FileActor): string {
  const path = contentPath(row.id);
  if (isPublic(row)) {
    const signature = deps.signer.permanent(path, { public: '1' });
    return urlOf(deps, path, { public: '1', signature });
  }
  const params: Record<string, string> =
    viewer?.kind === 'integration' ? { integration: viewer.integrationId } : {};
  const signed = deps.signer.sign(path, params, deps.settings.downloadUrlTtlMs);
  return urlOf(deps, path, { ...params, ...signed });
}

/** The upload URL of the file's current upload version (an older version's URL answers 410). */
export function uploadUrl(deps: UrlDeps, row: Pick<FileRow, 'id' | 'upload_version'>): string {
  const params = { v: String(row.upload_version) };
  const signed = deps.signer.sign(uploadPath(row.id), params, deps.settings.uploadUrlTtlMs);
  return urlOf(deps, uploadPath(row.id), { ...params, ...signed });
}

const NOT_HANDED_OUT = 'it was altered or is not one the API handed out';

/** 403 unless `query` signs `path` validly and is unexpired; `renew` says how to get a fresh URL. */
function checkSigned(
  signer: UrlSigner,
  what: 'upload' | 'download',
  path: string,
  query: Record<string, string | undefined>,
  renew: string,
): void {
  const check = signer.check(path, query);
  if (check === 'invalid') throw errors.forbidden(`This ${what} URL is not valid: ${NOT_HANDED_OUT}`);
  if (check === 'expired') throw errors.forbidden(`This ${what} URL has expired: ${renew}`);
}

/** 403 unless `query` is a valid, unexpired signature of the file's upload URL. */
export function checkUploadUrl(signer: UrlSigner, id: string, query: Record<string, string | undefined>) {
  checkSigned(signer, 'upload', uploadPath(id), query, 'upsert the file again (PUT /v1/files) for a new one');
}

/** 403 unless `query` is a valid, unexpired signature of the file's private download URL. */
export function checkDownloadUrl(signer: UrlSigner, id: string, query: Record<string, string | undefined>) {
  checkSigned(
    signer,
    'download',
    contentPath(id),
    query,
    'get the file again (GET /v1/files/{id}) for a fresh url',
  );
}

/** 403 unless `query` is a valid permanent signature of the file's public URL. */
export function checkPublicUrl(signer: UrlSigner, id: string, query: Record<string, string | undefined>) {
  if (!query.signature || !signer.checkPermanent(contentPath(id), { public: '1' }, query.signature))
    throw errors.forbidden(`This public URL is not valid: ${NOT_HANDED_OUT}`);
}
