import { errors } from '../../errors/errors.js';

/** Longest media type a file may carry. */
export const MAX_MEDIA_TYPE_LENGTH = 255;

// RFC 9110 §8.3.1 and §5.6: media-type = type "/" subtype *( OWS ";" OWS [ name "=" ( token / quoted-string ) ] ),
// restricted to visible ASCII and spaces (no tab, no obs-text, no control characters).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[ !#-\\[\\]-~]|\\\\[ -~])*"';
// Written so that every string matches in one way only (no backtracking blow-up on hostile input).
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?: *;(?: *${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/** Whether `value` is a media type that can be sent as a Content-Type header as is. */
export function isMediaType(value: string): boolean {
  return value.length <= MAX_MEDIA_TYPE_LENGTH && MEDIA_TYPE.test(value);
}

/** Checks a caller's media type before it is stored: 400 InvalidPayload naming `field` unless valid. */
export function checkMediaType(field: string, value: string): string {
  if (!isMediaType(value)) {
    const message =
      'must be a media type such as "text/plain; charset=utf-8": type/subtype and parameters made of RFC 9110 tokens or quoted strings, visible ASCII only';
    throw errors.invalidPayload(`${field} ${message}`, [{ field, message }]);
  }
  return value;
}

/** The media type to send for stored content: the stored one when valid, else application/octet-stream. */
export function servedMediaType(stored: string | null): string {
  return stored !== null && isMediaType(stored) ? stored : 'application/octet-stream';
}

/** Whether `value` is a text type (text/…) that names no charset parameter. */
export function isTextWithoutCharset(value: string): boolean {
  const [type, ...params] = value.split(';');
  return /^\s*text\/[^\s]+\s*$/i.test(type ?? '') && !params.some((param) => /^\s*charset\s*=/i.test(param));
}

/** `value` with `; charset=utf-8` added: what text uploaded without a charset is served as when it is UTF-8. */
export function withUtf8Charset(value: string): string {
  return `${value}; charset=utf-8`;
}
