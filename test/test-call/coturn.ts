import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/wait.js';
import { freeSipPort } from '../pbx-real/ports.js';

// Debian's coturn, unprivileged, in a temp folder on a free loopback port, checking the
// time-limited credentials the box hands out (use-auth-secret, as docs/test-call.md tells an
// operator to run it). It listens on loopback; it relays from the address Asterisk names in
// its ICE candidates, which is this machine's own interface address (Asterisk leaves loopback
// out of its host candidates), as a box's coturn relays from the box's private address: a
// peer's answer must come from the address its permission was made for, so relaying from
// 127.0.0.1 would see Asterisk answer from another source and drop it. Nothing leaves the
// machine either way.

const TURNSERVER = process.env.TURNSERVER_BIN ?? '/usr/bin/turnserver';

export function requireCoturn(): void {
  if (!fs.existsSync(TURNSERVER)) {
    throw new Error(`coturn is not installed (${TURNSERVER} is missing): install the Debian package coturn (apt-get install coturn, as .ci/run does)`);
  }
}

/** One TURN session's closing figures, as coturn logs them ("usage: … username=<…>, rp=…"). */
export interface TurnUsage {
  username: string;
  /** Packets received from the client and sent to it (rp, sp). */
  receivedPackets: number;
  sentPackets: number;
}

/** The first non-loopback IPv4 address of this machine (what Asterisk offers as its host candidate). */
function ownAddress(): string {
  const found = Object.values(os.networkInterfaces()).flat().find((a) => a && a.family === 'IPv4' && !a.internal);
  return found?.address ?? '127.0.0.1';
}

export class Coturn {
  private constructor(
    readonly url: string,
    readonly secret: string,
    private readonly dir: string,
    private readonly logFile: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(): Promise<Coturn> {
    requireCoturn();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'coturn-'));
    const port = await freeSipPort();
    const secret = `test-secret-${process.pid}-${port}`;
    const logFile = path.join(dir, 'turn.log');
    // An empty configuration file of its own: Debian's /etc/turnserver.conf sends the log to syslog.
    const conf = path.join(dir, 'turnserver.conf');
    fs.writeFileSync(conf, '');
    const child = spawn(TURNSERVER, [
      '-c', conf, '--listening-ip=127.0.0.1', `--relay-ip=${ownAddress()}`, `--listening-port=${port}`,
      '--use-auth-secret', `--static-auth-secret=${secret}`, '--realm=callkeeper.test',
      '--allow-loopback-peers', '--no-tls', '--no-dtls', '--no-cli', '--no-tcp-relay',
      `--userdb=${path.join(dir, 'turndb')}`, `--pidfile=${path.join(dir, 'turn.pid')}`,
      `--log-file=${logFile}`, '--simple-log', '--no-stdout-log', '--verbose',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const turn = new Coturn(`turn:127.0.0.1:${port}?transport=udp`, secret, dir, logFile, child);
    try {
      await waitUntil(() => {
        if (child.exitCode !== null) throw new Error(`turnserver exited (${child.exitCode}): ${stderr}${turn.log()}`);
        if (!/UDP listener opened on: 127\.0\.0\.1:\d+/.test(turn.log())) throw new Error('turnserver is not listening yet');
      }, 20_000);
    } catch (e) {
      await turn.close();
      throw e;
    }
    return turn;
  }

  log(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  /** Every closed TURN session's figures so far. */
  usage(): TurnUsage[] {
    return [...this.log().matchAll(/usage: realm=<[^>]*>, username=<([^>]*)>, rp=(\d+), rb=\d+, sp=(\d+)/g)].map((m) => ({
      username: m[1]!,
      receivedPackets: Number(m[2]),
      sentPackets: Number(m[3]),
    }));
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
