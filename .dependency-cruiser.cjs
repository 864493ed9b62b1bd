/**
 * Import rules of the house (docs/architecture.md): no cycles; infrastructure layers never import the HTTP
 * transport or the product modules; `http/` knows no module. Checked by `npm run deps` (part of `npm test`).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make modules impossible to load, test or reason about alone.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'infrastructure-knows-no-transport-or-module',
      severity: 'error',
      comment: 'access/, db/, blob/, search/, jobs/, errors/ and config/ sit below http/ and modules/.',
      // Contract suites and tests of db/ exercise the modules' repositories: they may import them.
      from: {
        path: '^packages/server/src/(access|db|blob|search|jobs|errors|config)/',
        pathNot: '\\.(test|contract)\\.ts$',
      },
      to: { path: '^packages/server/src/(http|modules)/' },
    },
    {
      name: 'http-knows-no-module',
      severity: 'error',
      comment: 'Transport concerns never depend on a product feature.',
      from: { path: '^packages/server/src/http/' },
      to: { path: '^packages/server/src/modules/' },
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
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.test.json' },
  },
};
