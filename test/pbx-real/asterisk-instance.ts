import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { freeSipPort, freeTcpPort, freeUdpRange } from './ports.js';

// One real Asterisk, unprivileged, in a temp folder: deploy/asterisk/etc rendered by the
// project's own entrypoint.sh, then only the loopback differences a test needs (listed in
// applyLoopbackDifferences), on free ports so several instances can run at once.

export interface AsteriskOptions {
  /** The unpacked tree (findAsterisk().root). */
  root: string;
  ariUsername?: string;
  ariPassword?: string;
  ariApp?: string;
  /** Extra environment for entrypoint.sh (e.g. SIP_TRUNKS). */
  env?: Record<string, string>;
  /** How many RTP ports (default 200): the entrypoint renders maxcalls from them unless PBX_MAX_CALLS is set. */
  rtpPorts?: number;
  /** The loopback address SIP listens on (a second node: 127.0.0.2); default 127.0.0.1. */
  sipAddress?: string;
  /** ARI's HTTP port (default a free one): a core already pointed there sees Asterisk appear. */
  httpPort?: number;
}

const DEPLOY = path.join(projectRoot(), 'deploy', 'asterisk');

export class AsteriskInstance {
  readonly run: string;
  readonly sipPort: number;
  readonly sipAddress: string;
  readonly httpPort: number;
  /** SIP over TLS (when SIP_TLS_CERT is given): a free port in place of 5061. */
  readonly tlsPort: number;
  /** This run's RTP range, first-last, as RTP_PORTS gives it to the entrypoint. */
  readonly rtpPorts: string;
  readonly ari: { url: string; username: string; password: string; app: string };
  private child: ChildProcess | undefined;
  private output = '';
  private exited: Promise<void> = Promise.resolve();

  private constructor(
    private readonly opts: AsteriskOptions,
    ports: { sip: number; http: number; tls: number; rtp: { start: number; count: number } },
  ) {
    this.run = fs.mkdtempSync(path.join(os.tmpdir(), 'ast-run-'));
    this.sipPort = ports.sip;
    this.sipAddress = opts.sipAddress ?? '127.0.0.1';
    this.httpPort = ports.http;
    this.tlsPort = ports.tls;
    this.rtpPorts = `${ports.rtp.start}-${ports.rtp.start + ports.rtp.count - 1}`;
    this.ari = {
      url: `http://127.0.0.1:${ports.http}`,
      username: opts.ariUsername ?? 'appliance',
      password: opts.ariPassword ?? crypto.randomBytes(12).toString('hex'),
      app: opts.ariApp ?? 'call-answering',
    };
  }

  /** Renders the configuration and starts Asterisk; resolves once ARI answers and boot is complete. */
  static async start(opts: AsteriskOptions): Promise<AsteriskInstance> {
    const rtpCount = opts.rtpPorts ?? 200;
    const ports = { sip: await freeSipPort(), http: opts.httpPort ?? (await freeTcpPort()), tls: await freeTcpPort(), rtp: { start: await freeUdpRange(rtpCount), count: rtpCount } };
    const a = new AsteriskInstance(opts, ports);
    a.render();
    await a.boot();
    return a;
  }

  get etc(): string {
    return path.join(this.run, 'etc');
  }

  get recordingsDir(): string {
    return path.join(this.run, 'spool', 'recording');
  }

  get soundsDir(): string {
    return path.join(this.run, 'data', 'sounds');
  }

  /** Everything Asterisk printed since it (re)started: console output and the messages log. */
  get log(): string {
    return this.output;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The compose prompts volume: sounds/appliance is the core's $DATA_DIR/prompts. */
  mountPrompts(promptsDir: string): void {
    fs.mkdirSync(promptsDir, { recursive: true });
    const link = path.join(this.soundsDir, 'appliance');
    fs.rmSync(link, { force: true, recursive: true });
    fs.symlinkSync(promptsDir, link);
  }

  private render(): void {
    const etc = this.etc;
    for (const d of ['etc', 'spool', 'log', 'run', 'lib', 'lib/keys', 'data/sounds']) fs.mkdirSync(path.join(this.run, d), { recursive: true });
    // The spool skeleton `make install` creates: ARI's record answers 500 without spool/recording.
    fs.cpSync(path.join(this.opts.root, 'var', 'spool', 'asterisk'), path.join(this.run, 'spool'), { recursive: true });
    const r = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ASTERISK_TEMPLATES: path.join(DEPLOY, 'etc'),
        ASTERISK_ETC: etc,
        ARI_USERNAME: this.ari.username,
        ARI_PASSWORD: this.ari.password,
        ARI_APP: this.ari.app,
        SIP_TRUNKS: 'uk-did',
        SIP_UKDID_MATCH: '127.0.0.1',
        // The trunk's qualify target: a provider proxy that is not there (callers are
        // identified by address; nothing needs to answer OPTIONS).
        SIP_UKDID_HOST: '127.0.0.1:9',
        // This run's free range, through the entrypoint: maxcalls is rendered from it.
        RTP_PORTS: this.rtpPorts,
        ...this.opts.env,
      },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`entrypoint.sh --render-only failed: ${r.stderr}`);
    this.applyLoopbackDifferences();
    this.linkData();
    // The image's asterisk.conf has only [options] (maxcalls…): kept, under this run's directories.
    const options = fs.readFileSync(path.join(etc, 'asterisk.conf'), 'utf8').split('[options]')[1]?.split('\n').filter((l) => /^\s*\w+\s*=/.test(l)) ?? [];
    fs.writeFileSync(
      path.join(etc, 'asterisk.conf'),
      [
        '; Written by test/pbx-real: every directory inside this run (the image uses the compiled-in paths).',
        '[directories]',
        `astetcdir => ${etc}`,
        `astmoddir => ${path.join(this.opts.root, 'lib', 'asterisk', 'modules')}`,
        `astvarlibdir => ${path.join(this.run, 'lib')}`,
        `astdbdir => ${path.join(this.run, 'lib')}`,
        `astkeydir => ${path.join(this.run, 'lib')}`,
        `astdatadir => ${path.join(this.run, 'data')}`,
        `astagidir => ${path.join(this.run, 'data', 'agi-bin')}`,
        `astspooldir => ${path.join(this.run, 'spool')}`,
        `astrundir => ${path.join(this.run, 'run')}`,
        `astlogdir => ${path.join(this.run, 'log')}`,
        `astsbindir => ${path.join(this.opts.root, 'sbin')}`,
        '',
        '[options]',
        'documentation_language = en_US',
        ...options,
        '',
      ].join('\n'),
    );
  }

  /** The only differences from the image's rendered files: loopback addresses, free ports, a log file. */
  private applyLoopbackDifferences(): void {
    const edit = (file: string, fn: (s: string) => string) => {
      const p = path.join(this.etc, file);
      const before = fs.readFileSync(p, 'utf8');
      const after = fn(before);
      if (after === before) throw new Error(`test/pbx-real: ${file} no longer has the line the harness changes`);
      fs.writeFileSync(p, after);
    };
    edit('http.conf', (s) => s.replace(/^bindaddr=0\.0\.0\.0$/m, 'bindaddr=127.0.0.1').replace(/^bindport=8088$/m, `bindport=${this.httpPort}`));
    edit('pjsip.conf', (s) => s.replace(/^bind=0\.0\.0\.0:5060$/gm, `bind=${this.sipAddress}:${this.sipPort}`));
    if (this.opts.env?.SIP_TLS_CERT) edit('pjsip_tls.conf', (s) => s.replace(/^bind=0\.0\.0\.0:5061$/m, `bind=${this.sipAddress}:${this.tlsPort}`));
    // The trunk's far end here is a SIPp phone on the same loaded machine: an OPTIONS answered
    // after qualify's default 3 s marks the contact unreachable until the next qualify a minute
    // later, and PJSIP refuses every call out meanwhile (a clean-clone run saw three forwarding
    // checks refused at once, 502). A provider that slow is down; a test phone that slow is busy.
    edit('pjsip.d/uk-did.conf', (s) => s.replace(/^qualify_frequency=60$/m, 'qualify_frequency=60\nqualify_timeout=30'));
    // The dialplan takes test calls only from the WebSocket transport, which is the HTTP server's port.
    edit('extensions.conf', (s) => s.replace(/^TEST_CALL_WS_PORT=8088$/m, `TEST_CALL_WS_PORT=${this.httpPort}`));
    fs.appendFileSync(path.join(this.etc, 'logger.conf'), '\n; test run: a file the harness reads\nmessages.log => notice,warning,error\n');
  }

  /** Read-only data from the unpacked tree; sounds/en gets the image's built-in sounds (deploy/asterisk/sounds.sh). */
  private linkData(): void {
    const lib = path.join(this.opts.root, 'var', 'lib', 'asterisk');
    for (const d of fs.readdirSync(lib)) {
      if (d === 'sounds') continue;
      fs.symlinkSync(path.join(lib, d), path.join(this.run, 'data', d));
    }
    fs.symlinkSync(builtInSounds(), path.join(this.soundsDir, 'en'));
    fs.mkdirSync(path.join(this.soundsDir, 'appliance'), { recursive: true });
  }

  private async boot(): Promise<void> {
    this.output = '';
    fs.rmSync(path.join(this.run, 'log', 'messages.log'), { force: true });
    const child = spawn(path.join(this.opts.root, 'sbin', 'asterisk'), ['-f', '-n', '-C', path.join(this.etc, 'asterisk.conf'), '-vvv'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // A test worker that dies must not leave Asterisk running (and holding its ports).
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Asterisk exited during boot (${child.exitCode}):\n${this.output.slice(-2000)}`);
      if (await this.ariAnswers()) break;
      if (Date.now() > deadline) throw new Error(`ARI did not answer within 60 s:\n${this.output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    this.cli('core waitfullybooted');
  }

  private async ariAnswers(): Promise<boolean> {
    try {
      const res = await fetch(`${this.ari.url}/ari/asterisk/info`, { headers: { authorization: this.basicAuth() } });
      return res.status === 200;
    } catch {
      return false;
    }
  }

  basicAuth(): string {
    return `Basic ${Buffer.from(`${this.ari.username}:${this.ari.password}`).toString('base64')}`;
  }

  /** One ARI request as JSON (tests inspect Asterisk's state directly). */
  async ariGet<T>(p: string): Promise<T> {
    const res = await fetch(`${this.ari.url}/ari${p}`, { headers: { authorization: this.basicAuth() } });
    if (!res.ok) throw new Error(`GET ${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  /** One CLI command over the control socket. */
  cli(command: string): string {
    const r = spawnSync(path.join(this.opts.root, 'sbin', 'asterisk'), ['-C', path.join(this.etc, 'asterisk.conf'), '-rx', command], { encoding: 'utf8', timeout: 30_000 });
    if (r.status !== 0) throw new Error(`asterisk -rx '${command}' failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  }

  /** The bench's verbose-4 log of RTP learning (a channel bench/lib/real-node.ts adds), or ''. */
  rtpLearningLog(): string {
    const p = path.join(this.run, 'log', 'rtp-learning.log');
    return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : '';
  }

  /** The messages log (notice, warning, error) of the current run. */
  messagesLog(): string {
    const p = path.join(this.run, 'log', 'messages.log');
    return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : '';
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** SIGTERM (Asterisk hangs callers up and finishes files) or SIGKILL (nothing is finished). */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    if (!this.running) return;
    this.child!.kill(signal);
    const killed = setTimeout(() => this.child?.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killed);
  }

  /** Starts again on the same folder and ports (spool and recordings kept). */
  async restart(): Promise<void> {
    await this.stop();
    await this.boot();
  }

  async destroy(): Promise<void> {
    await this.stop();
    fs.rmSync(this.run, { recursive: true, force: true });
  }
}

let soundsDir: string | undefined;

/** Runs deploy/asterisk/sounds.sh once per version of it (as the image's build does). */
function builtInSounds(): string {
  if (soundsDir) return soundsDir;
  const script = path.join(DEPLOY, 'sounds.sh');
  const key = crypto.createHash('sha256').update(fs.readFileSync(script)).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `callkeeper-sounds-${key}`);
  if (!fs.existsSync(dir)) {
    const tmp = fs.mkdtempSync(`${dir}.make-`);
    const r = spawnSync('sh', [script, tmp], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`deploy/asterisk/sounds.sh failed: ${r.stderr}`);
    try {
      fs.renameSync(tmp, dir);
    } catch {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  soundsDir = dir;
  return dir;
}
