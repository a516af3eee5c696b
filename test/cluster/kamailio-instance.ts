import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { waitUntil } from '../helpers/wait.js';
import { freeSipPort } from '../pbx-real/ports.js';

// Debian's Kamailio 5.6 running deploy/kamailio's own configuration, unprivileged, in a temp
// folder on a free loopback port: rendered by the project's entrypoint.sh, started here.

const DEPLOY = path.join(projectRoot(), 'deploy', 'kamailio');
const KAMAILIO = process.env.KAMAILIO_BIN ?? '/usr/sbin/kamailio';

/** One dispatcher destination as `kamcmd dispatcher.list` reports it. */
export interface NodeState {
  uri: string;
  /** AP: active and probing; IP: inactive, probing (down); ... (dispatcher's flags). */
  flags: string;
}

/** Each node in the output of `kamcmd dispatcher.list`. */
export function dispatcherNodes(out: string): NodeState[] {
  return [...out.matchAll(/URI:\s*(\S+)\s+FLAGS:\s*(\S+)/g)].map((m) => ({ uri: m[1]!, flags: m[2]! }));
}

export function requireKamailio(): void {
  if (!fs.existsSync(KAMAILIO)) {
    throw new Error(`Kamailio is not installed (${KAMAILIO} is missing): install the Debian package kamailio (apt-get install kamailio, as .ci/run does)`);
  }
}

export class KamailioInstance {
  private output = '';
  private child!: ChildProcess;
  private constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  /** Renders the configuration for `nodes` (host:port of each node's Asterisk), with entrypoint.sh's `env` (a registration trunk; the carrier is 127.0.0.1 unless `env` says otherwise), and starts Kamailio. */
  static async start(nodes: string[], env: Record<string, string> = {}): Promise<KamailioInstance> {
    requireKamailio();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-'));
    const port = await freeSipPort();
    const rendered = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        KAMAILIO_TEMPLATES: DEPLOY,
        KAMAILIO_ETC: dir,
        KAMAILIO_LISTEN: `udp:127.0.0.1:${port}`,
        KAMAILIO_NODES: nodes.join(','),
        KAMAILIO_CTL: path.join(dir, 'kamailio_ctl'),
        // The tests' carrier (SIPp callers, a registrar) is on 127.0.0.1; the nodes on their own addresses.
        KAMAILIO_CARRIERS: '127.0.0.1',
        ...env,
      },
      encoding: 'utf8',
    });
    if (rendered.status !== 0) throw new Error(`deploy/kamailio/entrypoint.sh --render-only failed: ${rendered.stderr}`);
    const k = new KamailioInstance(dir, port);
    await k.run();
    return k;
  }

  /** Kamailio on a configuration the test writes (a provider's registrar): `cfg` gets its listen address and control socket. */
  static async startConfig(cfg: (listen: string, ctl: string) => string): Promise<KamailioInstance> {
    requireKamailio();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kamailio-'));
    const port = await freeSipPort();
    fs.writeFileSync(path.join(dir, 'kamailio.cfg'), cfg(`udp:127.0.0.1:${port}`, `unix:${path.join(dir, 'kamailio_ctl')}`));
    const k = new KamailioInstance(dir, port);
    await k.run();
    return k;
  }

  /** Starts Kamailio on the rendered configuration and waits for its control socket (again after `halt`). */
  async run(): Promise<void> {
    const ctl = path.join(this.dir, 'kamailio_ctl');
    fs.rmSync(ctl, { force: true }); // a run before this one's socket is no sign of this one
    const child = spawn(KAMAILIO, ['-f', path.join(this.dir, 'kamailio.cfg'), '-DD', '-E', '-Y', this.dir, '-P', path.join(this.dir, 'kamailio.pid')], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    this.child = child;
    await waitUntil(() => {
      if (child.exitCode !== null) throw new Error(`Kamailio exited (${child.exitCode}):\n${this.output.slice(-3000)}`);
      if (!fs.existsSync(ctl)) throw new Error('Kamailio is not up yet');
    }, 120_000, 50); // seconds when quiet; minutes allowed on a loaded machine
  }

  /** Kamailio stopped and started again on the same address and configuration (an operator's restart, compose recreating it). */
  async restart(): Promise<void> {
    await this.halt();
    await this.run();
  }

  get log(): string {
    return this.output;
  }

  /** One RPC over the control socket (Debian's kamcmd). */
  rpc(...command: string[]): string {
    const r = spawnSync('kamcmd', ['-s', `unix:${path.join(this.dir, 'kamailio_ctl')}`, ...command], { encoding: 'utf8', timeout: 10_000 });
    if (r.status !== 0) throw new Error(`kamcmd ${command.join(' ')} failed: ${r.stderr || r.stdout}`);
    return r.stdout;
  }

  /** The dispatcher's view of each node: which it sends calls to now. */
  nodes(): NodeState[] {
    return dispatcherNodes(this.rpc('dispatcher.list'));
  }

  async stop(): Promise<void> {
    await this.halt();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Stops Kamailio, keeping its folder and port for `run` (a provider's outage). */
  async halt(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      const killed = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    }
  }
}
