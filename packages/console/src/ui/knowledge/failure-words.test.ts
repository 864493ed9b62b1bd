import { describe, expect, it } from 'vitest';
import { describeFailure } from './failure-words.js';

describe('describeFailure', () => {
  it('says a file of a kind Parley cannot read in words, without its code, and offers no Re-index', () => {
    const failure = describeFailure(
      'indexing_failed',
      'unsupported_format: Files of type "application/x-msdownload" ("setup.exe") cannot be indexed; supported: PDF, DOCX.',
    );
    expect(failure.words).toBe(
      'This kind of file cannot be read. Files of type "application/x-msdownload" ("setup.exe") cannot be indexed; supported: PDF, DOCX. Save it as PDF, Word, Markdown, HTML, text, CSV, JSON, Excel or PowerPoint and drop it again.',
    );
    expect(failure.words).not.toContain('unsupported_format');
    expect(failure.retry).toBe(false);
  });

  it('offers no Re-index for a damaged, empty or too large file: the same bytes fail again', () => {
    for (const code of ['unreadable_document', 'empty_document', 'too_large']) {
      const failure = describeFailure('indexing_failed', `${code}: something about the file`);
      expect(failure.retry, code).toBe(false);
      expect(failure.words, code).not.toContain(code);
      expect(failure.words, code).toContain('Something about the file.');
    }
  });

  it('offers Re-index where trying again may help: a timeout, a full quota, an unknown error', () => {
    expect(describeFailure('indexing_failed', 'timeout: the attempt ran longer than 60000 ms')).toEqual({
      words:
        'Indexing took too long and was stopped. The attempt ran longer than 60000 ms. Press Re-index to try again.',
      retry: true,
    });
    expect(
      describeFailure(
        'indexing_failed',
        'quota_exceeded: Vector DB Storage quota (10 bytes) would be exceeded',
      ).retry,
    ).toBe(true);
    expect(describeFailure('indexing_failed', 'error: socket hang up')).toEqual({
      words: 'Indexing stopped on an error. Socket hang up. Press Re-index to try again.',
      retry: true,
    });
  });

  it('tells an upload failure to drop the file again, and says when Parley gave no reason', () => {
    expect(
      describeFailure('upload_failed', 'upload_expired: the resumable upload ended after 10 of 20 bytes'),
    ).toEqual({
      words:
        'The upload stopped before the whole file arrived. The resumable upload ended after 10 of 20 bytes. Drop the file again.',
      retry: false,
    });
    expect(describeFailure('upload_failed', undefined)).toEqual({
      words: 'Parley gave no reason. Drop the file again to send it anew.',
      retry: false,
    });
    expect(describeFailure('indexing_failed', 'a reason without a code')).toEqual({
      words: 'Indexing stopped on an error. A reason without a code. Press Re-index to try again.',
      retry: true,
    });
  });
});
