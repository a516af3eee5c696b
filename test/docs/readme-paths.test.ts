import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const ROOTS = ['tsconfig.json', 'tsconfig.pg.json', 'root/', 'core/', 'pbx/', 'models/', 'dialogue/', 'contract/', 'console/', 'deploy/', 'drizzle/', 'test/', 'bench/', 'eval/', 'docs/', 'scripts/', '.ci/', '../shared/'];

/** The repository paths a document names in backticks (`root/main.ts`, `pbx/flows/`). */
function namedPaths(doc: string): string[] {
  const text = fs.readFileSync(path.join(root, doc), 'utf8');
  const found = new Set<string>();
  for (const [, inner] of text.matchAll(/`([^`\s]+)`/g)) {
    const candidate = inner!.replace(/[,.;:]$/, '');
    if (ROOTS.some((r) => candidate.startsWith(r)) && !candidate.includes('<') && !candidate.includes('*')) found.add(candidate);
  }
  return [...found];
}

const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

/** Files under `dir` (repository-relative) whose name matches `name`. */
function filesUnder(dir: string, name: RegExp): string[] {
  return (fs.readdirSync(path.join(root, dir), { recursive: true }) as string[]).filter((f) => name.test(path.basename(f))).map((f) => path.join(dir, f));
}

/** Whether `from` imports the module at `target` (both repository-relative, `.ts` files). */
function imports(from: string, target: string): boolean {
  const spec = path.relative(path.dirname(from), target).replace(/\.tsx?$/, '');
  const rel = spec.startsWith('.') ? spec : `./${spec}`;
  return new RegExp(`from '${rel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.js)?'|import\\('${rel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\.js)?'\\)`).test(read(from));
}

/** The "Where a change goes" table: each row's change and the repository paths it names. */
function changeRows(): Record<string, string[]> {
  const text = read('README.md');
  const table = text.slice(text.indexOf('## Where a change goes'), text.indexOf('\n## ', text.indexOf('## Where a change goes') + 1));
  const rows: Record<string, string[]> = {};
  for (const [, change, where] of table.matchAll(/^\| ([^|]+?) \| (.+) \|$/gm)) {
    if (change === 'change' || change!.startsWith('---')) continue;
    rows[change!] = [...where!.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  }
  return rows;
}

/** Files among `named` that import `target`, or a problem naming it. */
function importedByOneOf(named: string[], target: string): string[] {
  return named.filter((f) => /\.tsx?$/.test(f) && fs.existsSync(path.join(root, f))).some((f) => imports(f, target)) ? [] : [`${target} is imported by none of ${named.join(', ')}`];
}

/**
 * Per row, what the files it names must show for a change of that kind to really go there
 * (a new row needs its check here): today's code, read, not just the paths' existence.
 */
const ROW_CHECKS: Record<string, (named: string[]) => string[]> = {
  // Every capability's routes are registered by a file the row names.
  'an API route': (named) => filesUnder('core', /^routes\.ts$/).flatMap((r) => importedByOneOf(named, r)),
  // The chooser it names picks among the flows in its sub-folders.
  'a call flow': (named) => filesUnder('pbx/flows', /-flow\.ts$/).filter((f) => path.dirname(f) !== 'pbx/flows' && !f.includes('/agent/') && !f.includes('/forwarding-check/')).flatMap((f) => importedByOneOf(named, f)),
  // Every service the routes share is built in the file it names; every schedule is started by the root it names.
  'a service or background work': (named) => [
    ...filesUnder('core', /^schedule\.ts$/).filter((f) => read(f).includes('export function start') || read(f).includes('export async function start')).flatMap((f) => importedByOneOf(named, f)),
    ...(['core/webhooks/service.ts', 'core/caller-texts/service.ts', 'core/booking/service.ts'] as const).flatMap((f) => importedByOneOf(named, f)),
  ],
  // Every module running a job worker is started by the root it names (or built by the services it builds).
  'a job kind': (named) =>
    filesUnder('core', /\.ts$/)
      .filter((f) => !f.endsWith('.test.ts') && read(f).includes('new JobWorker('))
      .flatMap((f) => (imports('root/compose.ts', f) || imports('core/services.ts', f) ? [] : [`${f} runs a job worker nobody named starts`]))
      .concat(named.includes('root/compose.ts') ? [] : ['names no composition root']),
  // The declaration it names holds every table, and the two schema files are written from it by the script it names.
  'a column or table (a migration)': (named) => [
    ...(named.includes('core/db/declaration/tables.ts') && /export const users = table\(\s*'users'/.test(read('core/db/declaration/tables.ts')) ? [] : ['the declaration is not where it says']),
    ...(named.includes('npm run db:schema') || read('README.md').includes('npm run db:schema') ? [] : ['names no schema writer']),
    ...(['core/db/sqlite/schema.ts', 'core/db/pg/schema.ts'] as const).flatMap((f) => (read(f).includes('core/db/declaration/tables.ts') ? [] : [`${f} is not written from the declaration`])),
  ],
  // Product code takes its tables from the database (no module-level table import), and the type check it names runs both engines.
  'a query': (named) => [
    ...(named.includes('core/db/schema.ts') && /export function tablesOf\(/.test(read('core/db/schema.ts')) ? [] : ['core/db/schema.ts has no tablesOf']),
    ...['core', 'pbx', 'dialogue', 'models']
      .flatMap((dir) => filesUnder(dir, /\.ts$/))
      .filter((f) => !f.endsWith('.test.ts') && !f.startsWith('core/db/'))
      .filter((f) => /import \{[^}]*\b(users|calls|jobs|phoneNumbers)\b[^}]*\} from '[./]+(db\/)?(sqlite\/|pg\/)?schema\.js'/.test(read(f)))
      .map((f) => `${f} imports tables instead of taking them from its database`),
    ...(['tsconfig.json', 'tsconfig.pg.json'] as const).flatMap((c) => (named.includes(c) && read('package.json').includes(`tsc -p ${c} --noEmit`) ? [] : [`npm run typecheck does not run ${c}`])),
  ],
  // Callers' lines are modules there, and the flows speak them.
  'a line a caller hears': (named) => (named.includes('dialogue/spoken/') && filesUnder('dialogue/spoken', /\.ts$/).length > 0 && filesUnder('pbx', /\.ts$/).some((f) => read(f).includes('dialogue/spoken/')) ? [] : ['dialogue/spoken/ is not what the flows speak from']),
  // A language is one catalogue file, registered where the row says, for every code the contract lists.
  'a language': (named) => {
    const codes = [...read('contract/languages.ts').matchAll(/AGENT_LANGUAGES = \[([^\]]+)\]/g)].flatMap((m) => [...m[1]!.matchAll(/'([a-z]+)'/g)].map((c) => c[1]!));
    if (!named.includes('dialogue/language/catalogue/') || !named.includes('dialogue/language/catalogues.ts') || codes.length < 2) return ['names no catalogue folder and its register'];
    return codes.flatMap((c) => (fs.existsSync(path.join(root, `dialogue/language/catalogue/${c}.ts`)) && imports('dialogue/language/catalogues.ts', `dialogue/language/catalogue/${c}.ts`) ? [] : [`${c} has no registered catalogue file`]));
  },
  // Booking's rules are pure (no query, no calendar), and only its store and calendars query.
  'a booking rule': (named) => [
    ...(named.includes('core/booking/rules/') && named.includes('core/booking/store/') ? [] : ['names no rules and store rooms']),
    ...filesUnder('core/booking/rules', /\.ts$/).filter((f) => /from '[./]+db\/|tablesOf\(|from 'tsdav'/.test(read(f))).map((f) => `${f} is not pure`),
    ...filesUnder('core/booking', /\.ts$/).filter((f) => !/^core\/booking\/(store|calendars)\//.test(f) && read(f).includes('tablesOf(')).map((f) => `${f} queries outside the store`),
  ],
  // Every module that speaks a calendar protocol or format lives in the room it names.
  'a calendar': (named) =>
    named.includes('core/booking/calendars/') && named.includes('core/booking/calendars/guarded-fetch.ts')
      ? [
          ...filesUnder('core', /\.ts$/).filter((f) => /from '(tsdav|ical\.js)'/.test(read(f)) && !f.startsWith('core/booking/calendars/')).map((f) => `${f} speaks a calendar outside core/booking/calendars/`),
          // Only the guarded transport opens connections: a calendar request elsewhere would skip the address guard.
          ...filesUnder('core/booking', /\.ts$/).filter((f) => !f.endsWith('.test.ts') && f !== 'core/booking/calendars/guarded-fetch.ts' && /from 'node:https?'/.test(read(f))).map((f) => `${f} opens connections outside guarded-fetch.ts`),
        ]
      : ['names no calendar room and its guarded transport'],
  // The agent's flow acts on the policy it names, which has its test beside it.
  "what the agent does with a caller's turn": (named) => [
    ...importedByOneOf(named, 'dialogue/agent/turn-policy.ts'),
    ...(named.includes('dialogue/agent/turn-policy.test.ts') && fs.existsSync(path.join(root, 'dialogue/agent/turn-policy.test.ts')) ? [] : ['the policy has no test where it says']),
  ],
  // Each routing rule it names is pure (no query, no call control) with its test beside it, and the call side reads the team through the port.
  'how a call reaches a team member': (named) => {
    const rules = named.filter((f) => f.endsWith('.ts'));
    if (rules.length < 6) return ['names too few of the team\'s rules'];
    return [
      ...rules.filter((f) => read(f).split('\n').some((line) => !line.startsWith('import type') && /from '[./]+db\/|tablesOf\(|from '[./]+ari\/|ari-client/.test(line))).map((f) => `${f} is not pure`),
      ...rules.filter((f) => !fs.existsSync(path.join(root, f.replace(/\.ts$/, '.test.ts')))).map((f) => `${f} has no test beside it`),
      ...(read('core/ports/call-path.ts').includes('team(userId: number, now: Date): Promise<CallTeam>') ? [] : ['CallPath has no team']),
    ];
  },
  // pbx imports from core only the ports in the room it names.
  'something the PBX needs of the core': (named) =>
    named.includes('core/ports/')
      ? filesUnder('pbx', /\.ts$/).flatMap((f) => [...read(f).matchAll(/from '((?:\.\.\/)+core\/[^']+)'/g)].map((m) => path.join(path.dirname(f), m[1]!)).filter((t) => !t.startsWith('core/ports/')).map((t) => `${f} imports ${t}`))
      : ['names no ports room'],
  // Only the module it names starts worker threads.
  "work that would hold up the calls' event loop (a CPU-heavy conversion)": (named) =>
    named.includes('models/threads/module-worker.ts')
      ? ['core', 'pbx', 'models', 'dialogue', 'root'].flatMap((dir) => filesUnder(dir, /\.ts$/)).filter((f) => !f.endsWith('.test.ts') && f !== 'models/threads/module-worker.ts' && /new Worker\(/.test(read(f))).map((f) => `${f} starts a thread outside models/threads/`)
      : ['names no thread starter'],
  // The text-back asks the module it names before it texts.
  'a number the business counts as its own (never texted back)': (named) =>
    named.includes('core/caller-texts/own-numbers.ts') ? importedByOneOf(['core/caller-texts/service.ts'], 'core/caller-texts/own-numbers.ts') : ['names no own-numbers module'],
  // Every page folder is routed by the file it names.
  'a console page': (named) => fs.readdirSync(path.join(root, 'console/src/pages'), { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => (named.some((f) => f.endsWith('.tsx') && read(f).includes(`./pages/${d.name}/`)) ? [] : [`console/src/pages/${d.name}/ is routed by none of ${named.join(', ')}`])),
  // Every variable the configuration reads is documented where it says.
  'a setting': (named) => {
    const vars = [...read('core/config/config.ts').matchAll(/\(env, '([A-Z0-9_]+)'/g)].map((m) => m[1]!);
    const doc = named.find((f) => f.startsWith('docs/'));
    if (!named.includes('core/config/config.ts') || !doc || vars.length < 20) return ['names no configuration and its document'];
    return vars.filter((v) => !read(doc).includes(v)).map((v) => `${v} is read but not in ${doc}`);
  },
};

describe('the README is a map whose signs point at real rooms', () => {
  it('names at least the folders of the layout', () => {
    expect(namedPaths('README.md').length).toBeGreaterThan(20);
  });

  it('every path it names exists', () => {
    const missing = namedPaths('README.md').filter((p) => !fs.existsSync(path.join(root, p)));
    expect(missing).toEqual([]);
  });

  it('each "where a change goes" row names the files that change really touches today', () => {
    const rows = changeRows();
    expect(Object.keys(rows).sort()).toEqual(Object.keys(ROW_CHECKS).sort());
    const wrong = Object.entries(rows).flatMap(([change, named]) => ROW_CHECKS[change]!(named).map((problem) => `${change}: ${problem}`));
    expect(wrong).toEqual([]);
  });

  it('stays short enough to read in one sitting', () => {
    expect(fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(160);
  });
});
