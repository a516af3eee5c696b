// The appliance as operators install it: the project's own Dockerfiles and docker-compose.yml
// built on a Docker engine of the test's own, the stack brought up, and real SIP calls (SIPp,
// as in test/pbx-real) into the containerised Asterisk. Only Ollama and whisper are replaced,
// by the engine doubles (docker-compose.test.yml says why). Run by `npm run test:compose`
// (.ci/run runs it after `npm test`) on the engine test/compose/global-setup.ts starts, with
// Compose v2 (`docker compose`, from Debian's archive: compose-v2.ts); it needs root and
// Debian's docker.io, docker-compose (1.29 must still read the file) and debootstrap, and
// fails, never skips, without them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot } from '../../core/config/paths.js';
import { adminHealth } from '../helpers/health.js';
import { waitUntil } from '../helpers/wait.js';
import { envelopeMatch, loudMs, RATE, readWavSamples, speech } from '../pbx-real/audio.js';
import { listedModules, menuselectModules, moduleStates } from '../deploy/asterisk-modules.js';
import { heardBeep } from '../pbx-real/harness.js';
import { placeCall } from '../pbx-real/sipp.js';
import { ADMIN, DID, prepareStack, recordFigures, signUpOwner, type Stack } from './stack.js';
import { request, SITE_HOST } from '../https/caddy.js';
import { launchWithMicrophone, microphoneFile, openCallMyLine } from '../call-my-line/browser-caller.js';
import { ApiClient } from '../helpers/client.js';
import { chooseGreeting } from '../../dialogue/spoken/greeting.js';
import { promptKey } from '../../models/tts/index.js';
import { readWavInfo } from '../../models/audio/wav-file.js';
import { dockerClientEnv } from './dockerd.js';
import { CHANGED_FILE } from './piper-fixtures.js';

const ROOT = projectRoot();
// fail2ban: the SIP ban, in the default stack without a profile (issue 60 item 5).
const SERVICES = ['proxy', 'asterisk', 'core', 'ollama', 'whisper', 'fail2ban', 'piper'];
/** Issue 60 item 6: what the core image may add to its Node base. */
const CORE_IMAGE_BUDGET_MB = 200;
const figures: Record<string, string | number> = {};

let stack: Stack;
let owner: Awaited<ReturnType<typeof signUpOwner>>;

/** Seconds `run` took, recorded as a figure for the bench row (never asserted). */
async function timed<T>(name: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await run();
  figures[name] = Math.round((performance.now() - t0) / 100) / 10;
  return out;
}

const allHealthy = () => stack.allHealthy(SERVICES);
const health = (service: string) => stack.health(service);

/** A command in the core container (its data volume is /data). */
const coreExec = (args: string[]) => stack.exec('core', args);

async function callLogs(): Promise<Array<{ id: number; status: string; mode?: string; transcript?: string | null; recordingUrl?: string | null }>> {
  const res = await owner.get('/api/call-logs');
  if (res.status !== 200) throw new Error(`GET /api/call-logs: ${res.status} ${res.text}`);
  return res.body.callLogs;
}

/** Rows of __drizzle_migrations in the core's database, read inside the core container. */
function appliedMigrations(): number {
  const out = coreExec(['node', '-e', "const D=require('better-sqlite3');const d=new D('/data/appliance.db',{readonly:true});console.log(d.prepare('select count(*) n from __drizzle_migrations').get().n)"]);
  return Number(out.trim());
}

async function knowledgeBase(): Promise<string> {
  const res = await owner.get('/api/auth/me');
  if (res.status !== 200) throw new Error(`GET /api/auth/me: ${res.status} ${res.text}`);
  return res.body.user.knowledgeBase;
}

/** A file of the proxy's local CA (root.crt, intermediate.crt), read from its data volume. */
const caFile = (name: string) => stack.exec('proxy', ['cat', `/data/caddy/pki/authorities/local/${name}`]);

/** The owner signed in through the proxy over HTTPS: the session cookie as the browser keeps it. */
async function signInThroughProxy(ca: string): Promise<{ cookie: string; setCookie: string }> {
  const creds = owner.signedUpWith!;
  const res = await request(`${stack.proxyUrl}/api/auth/login`, { ca, method: 'POST', body: creds });
  if (res.status !== 200) throw new Error(`login through the proxy: ${res.status} ${res.body}`);
  const setCookie = res.headers['set-cookie']!.find((c) => !c.startsWith('signed_in='))!;
  return { cookie: setCookie.split(';')[0]!, setCookie };
}

/** Resolves once a TCP connection to address:port is accepted; rejects with the refusal. */
function tcpConnect(address: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port }, () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

/** A SIPp caller to the containerised Asterisk on 127.0.0.1:5060 that leaves `words`. */
async function leaveMessage(text: string) {
  const call = await placeCall(5060, { did: DID, from: '+447700900555' });
  await heardBeep(call, 120_000);
  const greetingMs = call.media.soundMs();
  await call.media.say(speech(text));
  return { call, greetingMs };
}

describe('docker compose: the stack built, booted and called as operators run it', () => {
  beforeAll(async () => {
    stack = await prepareStack(inject('dockerHost'), { name: 'box' });
    await timed('asterisk build s', () => stack.compose(['build', 'asterisk']));
    await timed('core build s', () => stack.compose(['build', 'core']));
    await timed('proxy build s', () => stack.compose(['build', 'proxy']));
    await timed('piper build s', () => stack.compose(['build', 'piper']));
    await stack.compose(['build', 'ollama', 'whisper', 'fail2ban']);
    await timed('up until healthy s', async () => {
      await stack.compose(['up', '-d']);
      await allHealthy();
    });
    // The bench row (never asserted): image sizes beside the base they add to.
    const mb = (image: string) => Math.round(Number(stack.docker(['image', 'inspect', '--format', '{{.Size}}', image]).trim()) / 1e6);
    const imageOf = (service: string) => stack.docker(['inspect', '--format', '{{.Image}}', stack.container(service)]).trim();
    figures['node base MB'] = mb('node:24-bookworm-slim');
    figures['core image MB'] = mb(imageOf('core'));
    figures['core adds to its base MB'] = Number(figures['core image MB']) - Number(figures['node base MB']);
    figures['asterisk image MB'] = mb(imageOf('asterisk'));
    owner = await signUpOwner(stack, 'Compose Plumbing');
  }, 60 * 60_000);

  afterAll(async () => {
    recordFigures(figures);
    await stack?.close('compose-logs.txt');
  }, 10 * 60_000);

  it('every service is healthy, the core has its PBX link up, the console loads from the published port', async () => {
    for (const s of SERVICES) expect(health(s), s).toBe('healthy');
    // Signed out, /healthz says only ok (what the compose health check reads); the PBX link's report is an administrator's.
    const res = await fetch(`${stack.consoleUrl}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect((await (await adminHealth(stack.consoleUrl))()).components.pbx).toMatchObject({ ok: true });
    const page = await fetch(`${stack.consoleUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<div id="root">/);
  });

  it('the language model pulled by the box on first start: the Ollama double started with none lists OLLAMA_MODEL, and the admin dashboard says it is ready', async () => {
    const admin = new ApiClient(stack.consoleUrl);
    expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
    const engines = await waitUntil(async () => {
      const res = await admin.get('/api/admin/engines');
      if (res.status !== 200 || res.body.languageModel.state !== 'ready') throw new Error(`the model is not ready yet: ${res.status} ${res.text}`);
      return res.body as { languageModel: { model: string } };
    }, 5 * 60_000, 1000);
    expect(engines.languageModel.model).toBe('llama3.2:3b');
    // Started with no model (serve.ts --no-model): listed now only because the core pulled it.
    const tags = (await (await fetch(`http://127.0.0.1:${stack.env.TEST_OLLAMA_PORT}/api/tags`)).json()) as { models: Array<{ name: string }> };
    expect(tags.models.map((m) => m.name)).toContain('llama3.2:3b');
  });

  it('the console over HTTPS only: HTTP redirects, the local CA’s certificate, no HSTS, the core’s port not reachable from the network, the session cookie Secure', async () => {
    const ca = caFile('root.crt');
    const redirect = await request(`http://${SITE_HOST}:${stack.proxyHttpPort}/dashboard/call-logs`);
    expect(redirect.status).toBe(308);
    expect(redirect.headers.location).toBe(`${stack.proxyUrl}/dashboard/call-logs`);
    const page = await request(`${stack.proxyUrl}/`, { ca });
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<div id="root">/);
    expect(page.peerCertificate!.issuer.CN).toMatch(/^Caddy Local Authority/);
    expect(page.headers['strict-transport-security']).toBeUndefined();
    // From the box's own network address, as another machine reaches it: the proxy answers,
    // the core's port refuses (it listens on loopback, for the proxy only).
    const lan = Object.values(os.networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
    expect(lan, 'a non-loopback IPv4 address on this machine').toBeDefined();
    await expect(tcpConnect(lan!, Number(new URL(stack.proxyUrl).port))).resolves.toBeUndefined();
    await expect(tcpConnect(lan!, stack.consolePort)).rejects.toThrow(/ECONNREFUSED/);
    const { setCookie, cookie } = await signInThroughProxy(ca);
    expect(setCookie.split(';').map((p) => p.trim().toLowerCase())).toContain('secure');
    expect((await request(`${stack.proxyUrl}/api/auth/me`, { ca, headers: { cookie } })).status).toBe(200);
  });

  it('the proxy’s certificate replaced (its leaf removed, the proxy restarted): a new certificate from the CA its volume kept, and the same session still signed in', async () => {
    const ca = caFile('root.crt');
    const { cookie } = await signInThroughProxy(ca);
    const before = await request(`${stack.proxyUrl}/api/auth/me`, { ca, headers: { cookie } });
    expect(before.status).toBe(200);
    stack.exec('proxy', ['rm', '-rf', '/data/caddy/certificates']);
    await stack.compose(['restart', 'proxy']);
    const after = await waitUntil(async () => {
      const r = await request(`${stack.proxyUrl}/api/auth/me`, { ca, headers: { cookie } });
      if (r.peerCertificate!.fingerprint256 === before.peerCertificate!.fingerprint256) throw new Error('still the old certificate');
      return r;
    }, 120_000, 500);
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body).user.email).toBe(owner.signedUpWith!.email);
    expect(caFile('root.crt')).toBe(ca);
  });

  it("Debian's docker-compose 1.29 still reads the file: the same services as Compose v2, the cluster profile's included", async () => {
    const v1 = stack.composeV1(['config', '--services']);
    expect(v1.status, v1.output).toBe(0);
    const services = (out: string) => out.split('\n').map((l) => l.trim()).filter(Boolean).sort();
    // 1.29 lists every service; v2 only those of the active profiles, so it is asked for the cluster's too.
    const v2 = await stack.compose(['--profile', 'cluster', 'config', '--services']);
    expect(services(v1.output)).toEqual(services(v2));
    expect(services(v2)).toEqual(expect.arrayContaining(SERVICES));
    // Without a profile, the SIP ban is among the services Compose v2 starts.
    expect(services(await stack.compose(['config', '--services']))).toContain('fail2ban');
  });

  it('the SIP ban runs without a profile: its jail reads Asterisk’s security.log and never bans the trunk’s provider', () => {
    const jail = stack.env.COMPOSE_PROJECT_NAME!;
    const status = stack.exec('fail2ban', ['fail2ban-client', 'status', jail]);
    expect(status).toContain('/var/log/asterisk/security.log');
    const ignored = stack.exec('fail2ban', ['fail2ban-client', 'get', jail, 'ignoreip']);
    // SIP_UKDID_HOST (127.0.0.1:9) resolved into the never-banned list.
    expect(ignored).toMatch(/127\.0\.0\.1\b/);
  });

  it(`the core image adds at most ${CORE_IMAGE_BUDGET_MB} MB to its Node base`, () => {
    // A size, not a time: the figure is also in the bench row (figures) and docs/deployment.md.
    expect(Number(figures['core adds to its base MB'])).toBeGreaterThan(0);
    expect(Number(figures['core adds to its base MB'])).toBeLessThanOrEqual(CORE_IMAGE_BUDGET_MB);
  });

  it('the Asterisk image holds exactly the modules menuselect.txt builds, and loads every one modules.conf lists', () => {
    const inAsterisk = (args: string[]) => stack.exec('asterisk', args);
    const built = inAsterisk(['ls', '/usr/lib/asterisk/modules'])
      .split('\n')
      .filter((f) => f.endsWith('.so'))
      .map((f) => f.replace(/\.so$/, ''));
    expect(built.sort()).toEqual(menuselectModules().sort());
    const states = moduleStates(inAsterisk(['asterisk', '-rx', 'module show']));
    expect(listedModules().filter((m) => states.get(m) !== 'Running')).toEqual([]);
  });

  it('runs the core as a non-root user, Asterisk as its own user, and no container privileged', () => {
    expect(coreExec(['id', '-u']).trim()).toBe('1000');
    // Caddy as the package's own user, 80/443 by a file capability rather than root.
    expect(stack.exec('proxy', ['id', '-un']).trim()).toBe('caddy');
    const asteriskUser = stack.exec('asterisk', ['sh', '-c', 'for p in /proc/[0-9]*; do [ "$(cat $p/comm 2>/dev/null)" = asterisk ] && stat -c %U $p; done; true']).trim();
    expect(asteriskUser.split('\n')[0]).toBe('asterisk');
    for (const s of SERVICES) {
      expect(stack.docker(['inspect', '--format', '{{.HostConfig.Privileged}}', stack.container(s)]).trim(), s).toBe('false');
    }
  });

  it('the core carries working pg_dump and pg_restore of PostgreSQL 15, for backups on DATABASE_URL=postgres://', () => {
    // Copied from the build stage without their package: every library they link must resolve.
    expect(coreExec(['pg_dump', '--version'])).toMatch(/^pg_dump \(PostgreSQL\) 15\./);
    expect(coreExec(['pg_restore', '--version'])).toMatch(/^pg_restore \(PostgreSQL\) 15\./);
  });

  it('a real SIP call: the greeting from the prompts volume, a voicemail row, the recording on its volume and the owner’s text', async () => {
    const { call, greetingMs } = await leaveMessage('Hello, my boiler is leaking in the kitchen, please call me back this afternoon.');
    expect(greetingMs).toBeGreaterThan(1000);
    expect((await call.done).exitCode).toBe(0);
    const row = await waitUntil(async () => {
      const r = (await callLogs()).find((c) => c.status === 'voicemail');
      if (!r) throw new Error('no voicemail row yet');
      return r;
    }, 120_000, 500);
    const wav = await owner.request('GET', `/api/call-logs/${row.id}/recording`);
    expect(wav.status).toBe(200);
    expect(coreExec(['ls', '/data/recordings'])).toMatch(new RegExp(`call-${row.id}\\.wav`));
    await waitUntil(() => {
      if (!stack.outboxTexts('core').some((m) => m.to === '+447700900123' && m.body.length > 0 && !/confirmation code is/.test(m.body))) throw new Error('no text to the owner yet');
    }, 120_000, 1000);
  });

  it("the greeting of that call was spoken by the Piper service: its prompt is the piper engine's, with the service's audio", async () => {
    // The prompt cache names each prompt by engine, voice and text (promptKey): the greeting's
    // file under the piper engine's key, none under espeak-ng's, and its sound the fixture voice's
    // (the CLI double in the piper image writes that WAV for every sentence).
    const greeting = chooseGreeting({ callGreeting: null, businessName: 'Compose Plumbing' });
    const prompts = coreExec(['ls', '/data/prompts']).split('\n').filter(Boolean);
    const piperKey = promptKey('piper', 'female', greeting);
    expect(prompts, `prompts: ${prompts.join(' ')}`).toContain(`${piperKey}.wav`);
    expect(prompts).not.toContain(`${promptKey('espeak-ng', 'female', greeting)}.wav`);
    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ck-greeting-')), 'greeting.wav');
    await stack.compose(['cp', `core:/data/prompts/${piperKey}.wav`, local]);
    const [heard, voice] = [await readWavInfo(local), await readWavInfo(stack.piper.voiceWav)];
    expect(heard).toMatchObject({ sampleRate: 8000, channels: 1, bitsPerSample: 16 });
    expect(Math.abs(heard.durationMs - voice.durationMs)).toBeLessThan(5);
    fs.rmSync(path.dirname(local), { recursive: true, force: true });
  });

  it("the piper image's build refuses a voice file changed by one byte: the build fails and says which file", async () => {
    const args = { ...stack.piper.buildArgs, PIPER_VOICES_URL: stack.piper.changedVoicesUrl };
    const tag = 'callkeeper-test/piper-refused';
    // Asynchronously: the fixture server the build fetches from runs in this process.
    const build = await promisify(execFile)(
      'docker',
      ['build', '--network', 'host', '--progress', 'plain', ...Object.entries(args).flatMap(([k, v]) => ['--build-arg', `${k}=${v}`]), '-t', tag, path.join(stack.dir, 'deploy', 'piper')],
      { env: dockerClientEnv(inject('dockerHost')), encoding: 'utf8', maxBuffer: 64 << 20, timeout: 10 * 60_000 },
    ).then(
      (r) => ({ status: 0, output: `${r.stdout}${r.stderr}` }),
      (e: { code?: number | string; stdout?: string; stderr?: string }) => ({ status: e.code ?? 'failed', output: `${e.stdout ?? ''}${e.stderr ?? ''}` }),
    );
    const output = build.output;
    expect(build.status, output.slice(-3000)).not.toBe(0);
    expect(output).toMatch(new RegExp(`${CHANGED_FILE.replace(/\./g, '\\.')} does not match its pinned SHA-256 [0-9a-f]{64} \\(got [0-9a-f]{64}\\): refusing it`));
    expect(() => stack.docker(['image', 'inspect', tag])).toThrow();
  });

  it('"Call my line" from Chromium over HTTPS at callkeeper.test (a secure context, the microphone allowed) hears the box’s greeting and leaves a test call', async () => {
    // After the SIPp call above, the prompts volume holds the owner's greeting. Chromium trusts the proxy's chain by the local CA's intermediate key (its SPKI), and maps the name to loopback.
    const spki = (pem: string) => crypto.createHash('sha256').update(new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-compose-call-'));
    const prompts = path.join(dir, 'prompts');
    await stack.compose(['cp', 'core:/data/prompts', prompts]);
    const greetings = fs.readdirSync(prompts).filter((f) => f.endsWith('.wav')).map((f) => readWavSamples(path.join(prompts, f)));
    expect(greetings.length).toBeGreaterThan(0);
    const longest = Math.max(...greetings.map((g) => g.length));
    const wav = microphoneFile(path.join(dir, 'mic.wav'), speech('Hello, this is a test of my line over HTTPS.'), longest + 4 * RATE);
    const browser = await launchWithMicrophone(wav, [
      `--host-resolver-rules=MAP ${SITE_HOST} 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${spki(caFile('intermediate.crt'))}`,
    ]);
    try {
      const { cookie } = await signInThroughProxy(caFile('root.crt'));
      const browserOwner = new ApiClient(stack.proxyUrl);
      browserOwner.cookie = cookie;
      const before = (await callLogs()).filter((c) => (c as { testCall?: boolean }).testCall).length;
      const { page, audio } = await openCallMyLine(browser, stack.proxyUrl, browserOwner);
      expect(await page.evaluate('window.isSecureContext')).toBe(true);
      await page.getByRole('button', { name: 'Call my line' }).click();
      await waitUntil(() => {
        const heard = audio.heard(0);
        const best = Math.max(...greetings.map((g) => envelopeMatch(g, heard).score));
        if (best < audio.hearsAt) throw new Error(`the greeting was not heard in the page (best match ${best.toFixed(2)})`);
      }, 120_000, 250);
      await waitUntil(async () => {
        const tests = (await callLogs()).filter((c) => (c as { testCall?: boolean }).testCall);
        if (tests.length !== before + 1) throw new Error(`test calls: ${tests.length}`);
      }, 120_000, 1000);
      await audio.stop();
    } finally {
      await browser.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an agent-mode call: the caller hears the agent over externalMedia between the containers', async () => {
    expect((await owner.request('PATCH', '/api/user/settings', { aiMode: 'agent', knowledgeBase: 'We fix boilers in Leeds, Monday to Friday.' })).status).toBe(200);
    const call = await placeCall(5060, { did: DID, from: '+447700900556' });
    await waitUntil(() => expect(call.media.soundMs()).toBeGreaterThan(1000), 120_000, 200);
    const greetingDone = await waitUntil(() => {
      const at = call.media.silenceStartedAfter(0, 700);
      if (at === undefined) throw new Error('the agent greeting is still playing');
      return at;
    }, 120_000, 200);
    const askedAt = performance.now();
    await call.media.say(speech('What days are you open?'));
    // The double's reply, spoken by the core's TTS, reaches the caller after they spoke.
    await waitUntil(() => expect(loudMs(call.media.heard(askedAt))).toBeGreaterThan(500), 120_000, 200);
    expect(greetingDone).toBeGreaterThan(0);
    await call.hangUp();
    await call.done;
    expect((await owner.request('PATCH', '/api/user/settings', { aiMode: 'voicemail' })).status).toBe(200);
  });

  it('the box tests its own AI: the self-test runs on the stack’s own engines and its report reaches GET /api/admin/quality', async () => {
    const admin = new ApiClient(stack.consoleUrl);
    expect((await admin.post('/api/auth/login', ADMIN)).status).toBe(200);
    const selfTest = await waitUntil(async () => {
      const res = await admin.get('/api/admin/quality');
      const st = res.body?.selfTest;
      if (st?.state !== 'done' && st?.state !== 'failed') throw new Error(`the self-test has not ended yet: ${res.status} ${JSON.stringify(st ?? null)}`);
      return st as { state: string; error: unknown; report: { figures: { latency: { agentFirstAudio?: { p50Ms: number } } } } };
    }, 10 * 60_000, 2000);
    expect(selfTest.state, JSON.stringify(selfTest.error)).toBe('done');
    expect(selfTest.report.figures.latency.agentFirstAudio?.p50Ms).toBeGreaterThan(0);
  });

  it('`docker compose stop` during a call lets it finish with its message; `up` again finds all the data, migrating nothing twice', async () => {
    const before = (await callLogs()).length;
    const call = await placeCall(5060, { did: DID, from: '+447700900557' });
    await heardBeep(call, 120_000);
    const stopping = stack.compose(['stop'], { timeoutMs: 300_000 });
    await call.media.say(speech('This message was left while the appliance was being stopped.'));
    await call.hangUp();
    await stopping;
    await stack.compose(['up', '-d']);
    await allHealthy();
    const logs = await waitUntil(async () => {
      const rows = await callLogs();
      if (rows.length !== before + 1 || rows[0]?.status !== 'voicemail') throw new Error(`calls after restart: ${JSON.stringify(rows.slice(0, 2))}`);
      return rows;
    }, 120_000, 1000);
    expect(logs[0]!.status).toBe('voicemail');
    const journal = JSON.parse(fs.readFileSync(path.join(ROOT, 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
    expect(appliedMigrations()).toBe(journal.entries.length);
  });

  it('an upgrade: the core rebuilt with a new migration starts on the old volumes, migrates them once and keeps every call', async () => {
    const callsBefore = (await callLogs()).length;
    const journalFile = path.join(stack.dir, 'drizzle', 'meta', '_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }> };
    const last = journal.entries[journal.entries.length - 1]!;
    // A newer commit, as far as the database can tell: one more migration in the build context.
    const tag = `${String(last.idx + 1).padStart(4, '0')}_compose_upgrade_check`;
    fs.writeFileSync(path.join(stack.dir, 'drizzle', `${tag}.sql`), 'CREATE TABLE `compose_upgrade_check` (`id` integer PRIMARY KEY NOT NULL);\n');
    journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
    fs.writeFileSync(journalFile, JSON.stringify(journal, null, 2));
    // The operator's upgrade: docker compose up -d --build (only the core changed).
    await timed('core rebuild (upgrade) s', () => stack.compose(['up', '-d', '--build', 'core']));
    await allHealthy();
    expect(appliedMigrations()).toBe(journal.entries.length);
    const table = coreExec(['node', '-e', "const D=require('better-sqlite3');const d=new D('/data/appliance.db',{readonly:true});console.log(d.prepare(\"select name from sqlite_master where name='compose_upgrade_check'\").get()?.name ?? '')"]);
    expect(table.trim()).toBe('compose_upgrade_check');
    expect((await callLogs()).length).toBe(callsBefore);
  });

  it('backup and restore through the documented commands, on the running stack', async () => {
    const calls = await callLogs();
    expect((await owner.request('PATCH', '/api/user/settings', { knowledgeBase: 'Before the backup.' })).status).toBe(200);
    // docs/deployment.md, "Backups on the compose stack": a backup while the stack runs.
    const made = await stack.compose(['exec', '-T', 'core', 'npm', 'run', '--silent', 'backup']);
    const folder = /Backup written to (\S+):/.exec(made)?.[1];
    expect(folder, made).toMatch(/^\/data\/backups\//);
    // Copied off the box as the page says: docker compose cp core:/data/backups ./backups.
    await stack.compose(['cp', 'core:/data/backups', './backups']);
    const copied = path.join(stack.dir, 'backups', path.basename(folder!), 'manifest.json');
    expect(fs.existsSync(copied), copied).toBe(true);
    expect((await owner.request('PATCH', '/api/user/settings', { knowledgeBase: 'After the backup.' })).status).toBe(200);
    expect(await knowledgeBase()).toBe('After the backup.');
    // Restore with the core stopped, in a one-off container on the same volumes.
    await stack.compose(['stop', 'core']);
    const restored = await stack.compose(['run', '--rm', '--no-deps', '-T', 'core', 'npm', 'run', '--silent', 'restore', '--', folder!, '--force']);
    expect(restored).toMatch(/Restored /);
    await stack.compose(['start', 'core']);
    await allHealthy();
    expect(await knowledgeBase()).toBe('Before the backup.');
    const after = await callLogs();
    expect(after.map((c) => c.id)).toEqual(calls.map((c) => c.id));
    const withRecording = after.find((c) => c.status === 'voicemail')!;
    expect((await owner.request('GET', `/api/call-logs/${withRecording.id}/recording`)).status).toBe(200);
  });
});

