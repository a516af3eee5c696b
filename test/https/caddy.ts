import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import type { LookupFunction } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../core/config/paths.js';
import { freeTcpPort } from '../pbx-real/ports.js';
import { waitUntil } from '../helpers/wait.js';

// The project's proxy as the image runs it (deploy/caddy/entrypoint.sh on the shipped
// Caddyfile), with Debian's caddy on this machine: free ports on loopback, its data (the local
// CA, certificates) and config in a temp folder, its admin API on a socket there.

const CADDY_DIR = path.join(projectRoot(), 'deploy', 'caddy');

/** The console's host name in these tests: not localhost, resolved to loopback by `lookup`. */
export const SITE_HOST = 'callkeeper.test';

/** Resolves SITE_HOST (and anything else) to 127.0.0.1, as /etc/hosts would: for https, ws and fetch-free clients. */
export const lookup: LookupFunction = (_host, options, callback) => {
  const cb = callback as unknown as (err: null, address: string | Array<{ address: string; family: number }>, family?: number) => void;
  if (typeof options === 'object' && options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
};

export interface Proxy {
  /** https://callkeeper.test:<port>: the console's PUBLIC_URL. */
  url: string;
  httpPort: number;
  httpsPort: number;
  /** The local CA's root (TLS_MODE=internal), from Caddy's data folder. */
  caRoot(): string;
  /** `caddy reload` through the admin socket, with the same settings (picks up replaced cert files). */
  reload(): void;
  log(): string;
  close(): Promise<void>;
}

export interface ProxySettings {
  TLS_MODE: string;
  TLS_CERT_FILE?: string;
  TLS_KEY_FILE?: string;
}

/** The entrypoint's environment for a proxy on `httpsPort` in front of `upstream`. */
function proxyEnv(dir: string, settings: ProxySettings & { PUBLIC_URL: string; HTTP_PORT: string; CORE_UPSTREAM: string }): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: dir,
    XDG_DATA_HOME: path.join(dir, 'data'),
    XDG_CONFIG_HOME: path.join(dir, 'config'),
    CADDY_ADMIN: `unix/${path.join(dir, 'admin.sock')}`,
    CADDYFILE: path.join(CADDY_DIR, 'Caddyfile'),
    ...settings,
  };
}

/** Runs the entrypoint to its end (a refused setting): its exit code and what it printed. */
export function entrypointRefusal(env: Record<string, string>): { status: number | null; stderr: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-proxy-'));
  try {
    const r = spawnSync(path.join(CADDY_DIR, 'entrypoint.sh'), [], {
      env: proxyEnv(dir, { TLS_MODE: 'internal', PUBLIC_URL: '', HTTP_PORT: '1', CORE_UPSTREAM: '127.0.0.1:1', ...env }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: r.status, stderr: r.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Starts the proxy for https://callkeeper.test:<httpsPort> in front of `upstream` (host:port)
 * and waits until it serves HTTPS with its certificate (`ca` verifies it, default the local CA).
 */
export async function startProxy(upstream: string, settings: ProxySettings, ports?: { httpPort: number; httpsPort: number }): Promise<Proxy> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ck-proxy-'));
  const httpPort = ports?.httpPort ?? (await freeTcpPort());
  const httpsPort = ports?.httpsPort ?? (await freeTcpPort());
  const url = `https://${SITE_HOST}:${httpsPort}`;
  const env = proxyEnv(dir, { ...settings, PUBLIC_URL: url, HTTP_PORT: String(httpPort), CORE_UPSTREAM: upstream });
  const logFile = path.join(dir, 'caddy.log');
  const out = fs.openSync(logFile, 'a');
  const child: ChildProcess = spawn(path.join(CADDY_DIR, 'entrypoint.sh'), [], { env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const proxy: Proxy = {
    url,
    httpPort,
    httpsPort,
    caRoot: () => fs.readFileSync(path.join(dir, 'data', 'caddy', 'pki', 'authorities', 'local', 'root.crt'), 'utf8'),
    reload() {
      const r = spawnSync('caddy', ['reload', '--force', '--config', env.CADDYFILE!, '--adapter', 'caddyfile', '--address', env.CADDY_ADMIN!], {
        env: { ...env, TLS_MODE: settings.TLS_MODE, CADDY_SITE: url },
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`caddy reload failed: ${r.stderr}`);
    },
    log: () => fs.readFileSync(logFile, 'utf8'),
    async close() {
      if (exited === undefined) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntil(async () => {
      if (exited !== undefined) throw new Error(`caddy exited ${exited}:\n${proxy.log().slice(-3000)}`);
      const ca = settings.TLS_MODE === 'internal' ? proxy.caRoot() : fs.readFileSync(settings.TLS_CERT_FILE!, 'utf8');
      await request(`${url}/healthz`, { ca });
    }, 30_000, 100);
  } catch (err) {
    await proxy.close();
    throw err;
  }
  return proxy;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The server's certificate (HTTPS only). */
  peerCertificate?: { issuer: Record<string, string>; serialNumber: string; fingerprint256: string };
}

/**
 * One request as a browser on another machine would make it: to SITE_HOST (resolved to
 * loopback), from `localAddress` (a loopback address standing for the client's own), trusting
 * only `ca`. Never follows redirects.
 */
export function request(
  url: string,
  opts: { ca?: string; localAddress?: string; method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const u = new URL(url);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const client = u.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      u,
      {
        method: opts.method ?? 'GET',
        lookup,
        localAddress: opts.localAddress,
        ...(u.protocol === 'https:' ? { ca: opts.ca, agent: false } : { agent: false }),
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => {
          const socket = res.socket as import('node:tls').TLSSocket;
          const cert = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate() : undefined;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: text,
            peerCertificate: cert && cert.serialNumber ? { issuer: cert.issuer as unknown as Record<string, string>, serialNumber: cert.serialNumber, fingerprint256: cert.fingerprint256 } : undefined,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A self-signed certificate for SITE_HOST made with openssl (the operator's own, TLS_MODE=files). */
export function selfMadeCertificate(dir: string, name: string): { cert: string; key: string } {
  const cert = path.join(dir, `${name}.crt`);
  const key = path.join(dir, `${name}.key`);
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', `/CN=${SITE_HOST}`, '-addext', `subjectAltName=DNS:${SITE_HOST}`, '-keyout', key, '-out', cert], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`openssl failed: ${r.stderr}`);
  return { cert, key };
}
