import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { waitUntil } from '../helpers/wait.js';
import { freeSipPort } from '../pbx-real/ports.js';

// Debian's coturn, unprivileged, in a temp folder on a free loopback port, run from the
// configuration the project ships (deploy/coturn/turnserver.conf, as docs/call-my-line.md tells an
// operator to run it): its @…@ values filled in, and only what a test run must change
// (ports, log file, no TLS) given on the command line instead of the file's lines. It listens
// on loopback; it relays from the address Asterisk names in its ICE candidates, which is this
// machine's own interface address (Asterisk leaves loopback out of its host candidates), as a
// box's coturn relays from the box's private address: a peer's answer must come from the
// address its permission was made for, so relaying from 127.0.0.1 would see Asterisk answer
// from another source and drop it. That address is also the media address, the one peer the
// shipped configuration allows. Nothing leaves the machine either way.

const SHIPPED = path.join(import.meta.dirname, '..', '..', 'deploy', 'coturn', 'turnserver.conf');
/** Lines of the shipped file a test run replaces by command-line options (free ports, no public address). */
const RUN_SPECIFIC = new Set(['listening-port', 'external-ip', 'min-port', 'max-port']);

const TURNSERVER = process.env.TURNSERVER_BIN ?? '/usr/bin/turnserver';

function requireCoturn(): void {
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

/** The first non-loopback IPv4 address of this machine (what Asterisk offers as its host candidate: the media address). */
export function ownAddress(): string {
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
    const media = ownAddress();
    // Its own configuration file: Debian's /etc/turnserver.conf would send the log to syslog.
    const conf = path.join(dir, 'turnserver.conf');
    fs.writeFileSync(conf, renderShipped({ REALM: 'callkeeper.test', TURN_SECRET: secret, MEDIA_ADDRESS: media }));
    const child = spawn(TURNSERVER, [
      '-c', conf, '--listening-ip=127.0.0.1', `--relay-ip=${media}`, `--listening-port=${port}`,
      '--no-tls', '--no-dtls',
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

  /** The address the relay may reach: the media address, where Asterisk's RTP is. */
  readonly mediaAddress = ownAddress();

  log(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return '';
    }
  }

  /** Every closed TURN session's figures so far, on the client's side ("peer usage" lines are the peer's side of the same session). */
  usage(): TurnUsage[] {
    return [...this.log().matchAll(/(?<!peer )usage: realm=<[^>]*>, username=<([^>]*)>, rp=(\d+), rb=\d+, sp=(\d+)/g)].map((m) => ({
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

/** deploy/coturn/turnserver.conf with its @…@ values filled in and the run-specific lines left out. */
function renderShipped(values: Record<string, string>): string {
  const lines = fs.readFileSync(SHIPPED, 'utf8').split('\n').filter((l) => !RUN_SPECIFIC.has(l.split('=')[0]!.trim()));
  const text = lines.join('\n').replace(/@([A-Z_]+)@/g, (m, name: string) => values[name] ?? m);
  const left = /^[^#\n]*@[A-Z_]+@/m.exec(text);
  if (left) throw new Error(`test/call-my-line/coturn.ts: deploy/coturn/turnserver.conf has a value the harness does not fill in: ${left[0]}`);
  return text;
}
