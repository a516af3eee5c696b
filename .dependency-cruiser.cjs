// The import rules README's layout states, checked by test/architecture/import-rules.test.ts
// (and `npm run check:imports`): `pbx → core → dialogue → models`, `contract/` for all and
// depending on nothing, `core` importing `pbx` only in its composition root, pbx running no SQL,
// and no import cycle anywhere (type-only imports included: a cycle of types is still a knot).
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'Break the cycle by moving the shared shape into a module of its own (see core/deps.ts).', from: {}, to: { circular: true } },
    { name: 'contract-depends-on-nothing', severity: 'error', comment: 'contract/ is shared by the server and the console: it imports only itself and npm packages.', from: { path: '^contract/' }, to: { path: '^(core|pbx|dialogue|models|console|test|bench|eval|scripts)/' } },
    { name: 'models-below-dialogue', severity: 'error', comment: 'models/ are the engines: they know nothing of what the product says or does.', from: { path: '^models/' }, to: { path: '^(core|pbx|dialogue)/' } },
    { name: 'dialogue-below-core', severity: 'error', comment: 'dialogue/ is what the product says, without I/O: it imports models/ and contract/ only.', from: { path: '^dialogue/' }, to: { path: '^(core|pbx)/' } },
    { name: 'core-imports-pbx-only-at-the-root', severity: 'error', comment: 'Only the composition root (core/root.ts) starts the PBX; the rest of core reaches it through what the root hands it.', from: { path: '^core/', pathNot: '^core/root\\.ts$' }, to: { path: '^pbx/' } },
    { name: 'pbx-runs-no-sql', severity: 'error', comment: 'pbx/ reads and writes the core\'s data through CallPath (core/calls/call-path.ts), never with SQL of its own.', from: { path: '^pbx/' }, to: { path: '(^core/db/|node_modules/(drizzle-orm|better-sqlite3|pg)/)' } },
    { name: 'product-imports-no-tests', severity: 'error', comment: 'Product code never imports test/, bench/ or eval/.', from: { path: '^(core|pbx|dialogue|models|contract)/', pathNot: '\\.test\\.ts$' }, to: { path: '^(test|bench|eval)/' } },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^console/' },
  },
};
