/**
 * Import rules of the house (docs/architecture.md, "Layers"): no cycles, type-only ones included; every top-level
 * folder and file of packages/server/src sits in one layer and imports only its own layer or lower ones; a module
 * reaches another only through its door (`contract.ts`, `service.ts` or `index.ts`); the three parts of search/
 * do not import each other; production code never imports test helpers. Checked by `npm run deps`.
 */
/** The server's layers, lowest first: each may import its own layer and those below it, never one above. */
const { SRC, LAYERS } = require('./tools/server-layers.cjs');
/** Tests and shared test suites (`*.suite.ts`) may exercise higher layers (a db/ suite runs the modules' repositories). */
const TESTS = '\\.(test|suite)\\.ts$';
/** Test code shared by the tests, e2e and benchmarks (docs/development.md, "Where test code lives"). */
const TESTKIT = '^packages/testkit/';

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `${layer.name}-imports-no-higher-layer`,
  severity: 'error',
  comment: `${layer.name} (${layer.comment}) never imports ${LAYERS.slice(i + 1)
    .map((l) => l.name)
    .join(', ')}.`,
  from: { path: layer.path, pathNot: TESTS },
  to: { path: LAYERS.slice(i + 1).map((l) => l.path) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycles, type-only ones too, make modules impossible to load, test or reason about alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'every-server-file-has-a-layer',
      severity: 'error',
      comment:
        'A new top-level folder or file of packages/server/src gets its layer above (and its line in docs/architecture.md).',
      from: {
        path: SRC,
        pathNot: [...LAYERS.map((l) => l.path), `${SRC}[^/]+${TESTS}`, `${SRC}[^/]+\\.d\\.ts$`],
      },
      to: {},
    },
    ...layerRules,
    {
      name: 'module-through-its-door',
      severity: 'error',
      comment:
        "A module reaches another only through that module's door: contract.ts, service.ts or index.ts (tests may look inside).",
      from: { path: `${SRC}modules/([^/]+)/`, pathNot: TESTS },
      to: {
        path: `${SRC}modules/`,
        // modules/*.ts: the helpers every module shares (use-cases.ts)
        pathNot: [
          `${SRC}modules/$1/`,
          `${SRC}modules/[^/]+/(contract|service|index)\\.ts$`,
          `${SRC}modules/[^/]+\\.ts$`,
        ],
      },
    },
    {
      name: 'search-parts-apart',
      severity: 'error',
      comment: 'search/ingest, search/embed and search/index share only search/types.ts, never each other.',
      from: { path: `${SRC}search/(ingest|embed|index)/` },
      to: { path: `${SRC}search/(ingest|embed|index)/`, pathNot: `${SRC}search/$1/` },
    },
    {
      name: 'no-testkit-in-production',
      severity: 'error',
      comment:
        'The testkit is for tests, test suites, e2e and benchmarks only: production code never imports it.',
      from: { pathNot: [TESTKIT, TESTS, '^e2e/', '^bench/'] },
      to: { path: TESTKIT },
    },
    {
      name: 'server-needs-no-client',
      severity: 'error',
      comment:
        'The server does not depend on its clients: the remote CLI commands, which talk HTTP through @parley/client, ' +
        'live in packages/cli, which builds on the server (its @parley/server/cli export), never the other way.',
      from: { path: '^packages/server/' },
      to: { path: '^packages/(client|cli)/' },
    },
    {
      name: 'protocol-has-no-io',
      severity: 'error',
      comment: 'The wire package is shared by server, client and webchat: it imports none of them.',
      from: { path: '^packages/protocol/src/' },
      to: { path: '^packages/(server|client|webchat)/' },
    },
  ],
  options: {
    // The built client and CLI stay in the graph as leaves (what @parley/client and @parley/cli resolve to), so
    // server-needs-no-client sees an import of them; every other dist/ is left out.
    doNotFollow: { path: ['node_modules', '^packages/(client|cli)/dist/'] },
    exclude: { path: ['(^|/)node_modules/', '^packages/(?!client/|cli/)[^/]+/dist/', '^(e2e|bench)/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
  },
};
