/**
 * The backstop against prototype pollution: `Object.prototype` frozen, so a key that slipped past the checks
 * of user-named keys (`__proto__`, `constructor`, `prototype` are refused at the body parser, the tag-filter
 * parser and the services) can no longer add a member every object inherits; the write fails instead.
 *
 * Called by `startServer` once the app is built, never at import (no import-time side effects; tests that
 * build apps in a test runner leave its realm alone). Freezing makes the assignment of an inherited name to
 * an object that does not own it (`X.prototype.toString = …`, the "override mistake") throw in strict code:
 * a dependency doing that while its module loads must load before this (fastify's `ipaddr.js` does; it is
 * loaded with the app). Worker threads have realms of their own and are not affected.
 */
export function freezeObjectPrototype(): void {
  Object.freeze(Object.prototype);
}
