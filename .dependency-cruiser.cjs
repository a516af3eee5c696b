// The import rules README's layout states, checked by test/architecture/import-rules.test.ts
// (and `npm run check:imports`): `root → pbx → core → dialogue → models`, `contract/` for all
// and depending on nothing; the composition root (root/) alone wiring core and pbx together and
// imported by nothing of the product; pbx reaching core only through its ports (core/ports/) and
// running no SQL; the data layer (core/db/) knowing no capability; the console importing only
// contract/; and no import cycle anywhere (type-only imports included: a cycle of types is
// still a knot).
const PRODUCT = '(root|core|pbx|dialogue|models|contract|console)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycle', severity: 'error', comment: 'Break the cycle by moving the shared shape into a module of its own (see core/deps.ts).', from: {}, to: { circular: true } },
    { name: 'contract-depends-on-nothing', severity: 'error', comment: 'contract/ is shared by the server and the console: it imports only itself and npm packages.', from: { path: '^contract/' }, to: { path: '^(root|core|pbx|dialogue|models|console|test|bench|eval|scripts)/' } },
    { name: 'models-below-dialogue', severity: 'error', comment: 'models/ are the engines: they know nothing of what the product says or does.', from: { path: '^models/' }, to: { path: '^(root|core|pbx|dialogue)/' } },
    { name: 'dialogue-below-core', severity: 'error', comment: 'dialogue/ is what the product says, without I/O: it imports models/ and contract/ only.', from: { path: '^dialogue/' }, to: { path: '^(root|core|pbx)/' } },
    { name: 'core-imports-no-pbx', severity: 'error', comment: 'The composition root (root/compose.ts) starts the PBX and hands it the core\'s objects; core never reaches up to pbx/.', from: { path: '^core/' }, to: { path: '^pbx/' } },
    { name: 'nothing-imports-the-root', severity: 'error', comment: 'root/ is the top of the house: only tests, benches and scripts build the appliance with it.', from: { path: `^${PRODUCT}/`, pathNot: '^root/' }, to: { path: '^root/' } },
    { name: 'pbx-reaches-core-through-ports', severity: 'error', comment: 'pbx/ imports from core/ only its ports (core/ports/, listed in docs/architecture.md); anything else it needs the root hands it.', from: { path: '^pbx/' }, to: { path: '^core/', pathNot: '^core/ports/' } },
    { name: 'pbx-runs-no-sql', severity: 'error', comment: 'pbx/ reads and writes the core\'s data through CallPath (core/ports/call-path.ts), never with SQL of its own.', from: { path: '^pbx/' }, to: { path: '(^core/db/|node_modules/(drizzle-orm|better-sqlite3|pg)/)' } },
    { name: 'db-imports-no-capability', severity: 'error', comment: 'core/db/ is the data layer under every capability: it imports only itself, its own setting (core/db/setting.ts), the generic back-off, the safe error text and the project-root lookup; no capability, job kind or other configuration.', from: { path: '^core/db/', pathNot: '\\.test\\.ts$' }, to: { path: '^core/', pathNot: '^core/(db/|time/backoff\\.ts$|logging/safe-errors\\.ts$|config/paths\\.ts$)' } },
    { name: 'console-imports-only-contract', severity: 'error', comment: 'The console talks to the server over HTTP only: besides its own files and npm packages it imports contract/ (a console test may check it agrees with a server rule).', from: { path: '^console/', pathNot: '\\.test\\.tsx?$' }, to: { path: '^(root|core|pbx|dialogue|models|test|bench|eval|scripts)/' } },
    { name: 'product-imports-no-tests', severity: 'error', comment: 'Product code never imports test/, bench/ or eval/.', from: { path: `^${PRODUCT}/`, pathNot: '\\.test\\.tsx?$' }, to: { path: '^(test|bench|eval)/' } },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // console/dist is the built bundle; console/src is scanned with the server's folders.
    exclude: { path: '(^|/)node_modules/|^console/dist/' },
  },
};
