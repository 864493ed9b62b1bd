import { checkConfiguration, WebchatError } from './config.js';
import { checkLocale } from './i18n.js';

/** Whether a value is an object with fields (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks user fields given by the page (`init({user})`, `updateUser`, `config({user})`): the error, if any. */
export function checkUser(user: unknown): WebchatError | undefined {
  if (!isPlainObject(user))
    return new WebchatError('user must be an object {name?, pictureUrl?, data?, userKey?}');
  for (const [key, value] of Object.entries(user)) {
    if (!['name', 'pictureUrl', 'data', 'userKey'].includes(key)) {
      return new WebchatError(`user.${key} is not a user field (name, pictureUrl, data, userKey)`, [
        { field: `user.${key}`, message: 'is not a user field' },
      ]);
    }
    if (value === null || value === undefined) continue;
    if (key === 'data' ? !isPlainObject(value) : typeof value !== 'string') {
      return new WebchatError(`user.${key} must be ${key === 'data' ? 'an object' : 'a string'}`, [
        { field: `user.${key}`, message: key === 'data' ? 'must be an object' : 'must be a string' },
      ]);
    }
  }
  return undefined;
}

const CONFIG_OPTIONS = ['configuration', 'user', 'locale', 'strings'];

/**
 * Checks the argument of `config()` as a whole: its shape, then the language, the configuration and the
 * user, in that order. Answers the first error: a call with any error changes nothing.
 */
export function checkConfigCall(options: unknown): WebchatError | undefined {
  if (!isPlainObject(options)) {
    return new WebchatError('config({configuration?, user?, locale?, strings?}) needs an object');
  }
  const unknown = Object.keys(options).filter((k) => !CONFIG_OPTIONS.includes(k));
  if (unknown.length > 0) {
    return new WebchatError(`config(): unknown option ${unknown.join(', ')} (${CONFIG_OPTIONS.join(', ')})`);
  }
  const localeError = checkLocale(options.locale, options.strings);
  if (localeError) return localeError;
  if (options.configuration !== undefined) {
    const { error } = checkConfiguration(options.configuration);
    if (error) return error;
  }
  return options.user === undefined ? undefined : checkUser(options.user);
}
