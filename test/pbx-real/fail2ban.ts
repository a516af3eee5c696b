import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { waitUntil } from '../helpers/wait.js';

// Debian's fail2ban with the project's jail (deploy/fail2ban, rendered by its own entrypoint.sh)
// in a temp folder: its own socket, pid file and in-memory database, the stock iptables action.
// The differences from the image are the test's: the jail watches one Asterisk's security.log,
// bans on that Asterisk's SIP port only (so banning 127.0.0.1 touches no other test's traffic)
// in INPUT, and has a name of its own (its chains f2b-<name>-u/-t are this run's alone).

const DEPLOY = path.join(projectRoot(), 'deploy', 'fail2ban');

export interface Fail2banOptions {
  /** The Asterisk security.log the jail reads. */
  log: string;
  /** The SIP port whose packets a ban drops. */
  sipPort: number;
  /** Extra environment for entrypoint.sh (SIP_UKDID_MATCH, SIP_BAN_AFTER…). */
  env?: Record<string, string>;
}

export class Fail2ban {
  readonly jail = `sip-${crypto.randomBytes(3).toString('hex')}`;
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'f2b-'));
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(private readonly opts: Fail2banOptions) {}

  static async start(opts: Fail2banOptions): Promise<Fail2ban> {
    const f = new Fail2ban(opts);
    f.render();
    await f.boot();
    return f;
  }

  get socket(): string {
    return path.join(this.dir, 'fail2ban.sock');
  }

  /** The iptables chain the UDP ban rules go into. */
  get udpChain(): string {
    return `f2b-${this.jail}-u`;
  }

  private render(): void {
    const etc = path.join(this.dir, 'etc');
    // Debian's filters and actions as installed, with the project's filter as the image adds it; no jail but the project's.
    fs.cpSync('/etc/fail2ban', etc, { recursive: true });
    fs.cpSync(path.join(DEPLOY, 'filter.d'), path.join(etc, 'filter.d'), { recursive: true });
    fs.rmSync(path.join(etc, 'jail.d'), { recursive: true, force: true });
    fs.mkdirSync(path.join(etc, 'jail.d'));
    fs.writeFileSync(
      path.join(etc, 'fail2ban.local'),
      ['[Definition]', `socket = ${this.socket}`, `pidfile = ${path.join(this.dir, 'fail2ban.pid')}`, 'dbfile = :memory:', `logtarget = ${path.join(this.dir, 'fail2ban.log')}`, 'loglevel = INFO', ''].join('\n'),
    );
    const r = spawnSync('sh', [path.join(DEPLOY, 'entrypoint.sh'), '--render-only'], {
      env: {
        PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin',
        FAIL2BAN_TEMPLATES: DEPLOY,
        FAIL2BAN_ETC: etc,
        SIP_BAN_JAIL: this.jail,
        SIP_SECURITY_LOG: this.opts.log,
        SIP_BAN_PORTS: String(this.opts.sipPort),
        SIP_BAN_CHAIN: 'INPUT',
        ...this.opts.env,
      },
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`deploy/fail2ban/entrypoint.sh --render-only failed: ${r.stderr}`);
  }

  private async boot(): Promise<void> {
    const child = spawn('fail2ban-server', ['-f', '-x', '-c', path.join(this.dir, 'etc')], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    // A test worker that dies must not leave a ban (an iptables rule) behind.
    const reap = () => {
      this.client(['stop']);
      child.kill('SIGKILL');
    };
    process.once('exit', reap);
    child.once('exit', () => process.off('exit', reap));
    child.stdout!.on('data', (d) => (this.output += d));
    child.stderr!.on('data', (d) => (this.output += d));
    await waitUntil(() => {
      if (child.exitCode !== null) throw new Error(`fail2ban-server exited (${child.exitCode}):\n${this.output}\n${this.log()}`);
      const status = this.client(['status', this.jail]);
      // The iptables chains come with the first ban (the actions start on demand).
      if (status.status !== 0) throw new Error(`the jail is not up yet: ${status.stderr}`);
    }, 60_000, 100);
  }

  client(args: string[]): { status: number | null; stdout: string; stderr: string } {
    const r = spawnSync('fail2ban-client', ['-s', this.socket, ...args], { encoding: 'utf8', timeout: 30_000 });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  }

  /** The addresses the UDP rule set drops now (iptables -S of this jail's chain). */
  bannedNow(): string[] {
    const r = spawnSync('iptables', ['-S', this.udpChain], { encoding: 'utf8' });
    return [...(r.stdout ?? '').matchAll(/-s (\S+?)(?:\/32)? .*-j (?:REJECT|DROP)/g)].map((m) => m[1]!);
  }

  log(): string {
    const p = path.join(this.dir, 'fail2ban.log');
    return fs.existsSync(p) ? fs.readFileSync(p, 'utf8') : '';
  }

  /** Stops fail2ban: its actions remove the rules and chains it made. */
  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((r) => this.child!.once('exit', r));
      this.client(['stop']);
      const killed = setTimeout(() => this.child?.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(killed);
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
