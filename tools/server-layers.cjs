/**
 * The layers of packages/server/src, lowest first (docs/architecture.md, "Layers"): each may import its own layer
 * and those below it, never one above. Read by .dependency-cruiser.cjs (the rules) and by
 * packages/server/src/architecture-doc.test.ts (every top-level folder and file has a layer, and the doc says which).
 * Test helpers live outside it, in packages/testkit (used by no production file).
 */
const SRC = '^packages/server/src/';

module.exports = {
  SRC,
  LAYERS: [
    {
      name: 'base',
      comment: 'settings, errors, worker threads and small leaf helpers',
      path: `${SRC}(errors/|config/|workers/|(ids|logger|json-depth|outbound-body|data-dir|harden|young-generation)\\.ts$)`,
    },
    {
      name: 'infrastructure',
      comment: 'permissions, storage, jobs and knowledge search',
      path: `${SRC}(access|db|blob|jobs|search)/`,
    },
    { name: 'transport', comment: 'HTTP concerns of every surface', path: `${SRC}http/` },
    {
      name: 'instrumentation',
      comment: 'metrics, handed what they count by the wiring',
      path: `${SRC}metrics/`,
    },
    { name: 'modules', comment: 'the product features', path: `${SRC}modules/` },
    {
      name: 'wiring',
      comment: 'the app, its services, surfaces and background work, the server',
      path: `${SRC}(app|services(-types|-knowledge)?|surfaces|background|background-thread|background-thread-main|background-thread-protocol|platform|bootstrap|server)\\.ts$`,
    },
    { name: 'commands', comment: 'the CLI and the process entry', path: `${SRC}(cli/|(cli|main)\\.ts$)` },
  ],
};
