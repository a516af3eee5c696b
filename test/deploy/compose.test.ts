import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../core/config/config.js';
import { projectRoot } from '../../core/config/paths.js';
import { PROMPTS_SOUND_DIR } from '../../models/tts/index.js';

// No Docker engine here: the compose file is parsed and checked for what `docker compose up`
// relies on. Interpolation (${VAR:-default}) is resolved the way compose does it.
const root = projectRoot();
// merge: the `<<:` keys that share settings between the nodes, as Compose reads them.
const readCompose = (file: string) => parse(fs.readFileSync(path.join(root, file), 'utf8'), { merge: true }) as { services: Record<string, Service>; volumes: Record<string, unknown> };
const compose = readCompose('docker-compose.yml');
interface Service {
  profiles?: string[];
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  environment?: Record<string, string>;
  env_file?: string | string[];
  volumes?: string[];
  ports?: string[];
  network_mode?: string;
  depends_on?: Record<string, { condition: string }>;
  command?: string[];
  healthcheck?: { test: string[] | string; interval?: string };
}
const { asterisk, core, ollama, whisper, proxy, piper } = compose.services as Record<string, Service>;
const published = readCompose('docker-compose.ports.yml').services;
// fail2ban on Asterisk's security.log (docs/security.md, "SIP scanners"): in the default stack
// since issue 60, turned off by SIP_BAN=off rather than by a profile.
const ONE_BOX = ['proxy', 'asterisk', 'core', 'ollama', 'whisper', 'fail2ban', 'piper'];
const CLUSTER = ['kamailio', 'asterisk-b', 'core-b', 'postgres'];

/** ${VAR:-default} → default, ${VAR:?message} → required, ${VAR} → unset. */
function interpolate(value: string, env: Record<string, string> = {}): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g, (_m, name: string, op?: string, arg?: string) => {
    if (env[name]) return env[name]!;
    if (op === ':?') throw new Error(`${name} is required: ${arg}`);
    return op === ':-' ? (arg ?? '') : '';
  });
}

/** The container path a named volume is mounted at, with its options. */
function mount(service: Service, volume: string): { target: string; readOnly: boolean } | undefined {
  const entry = service.volumes?.find((v) => v.split(':')[0] === volume);
  if (!entry) return undefined;
  const [, target, mode] = entry.split(':');
  return { target: target!, readOnly: mode === 'ro' };
}

describe('docker-compose.yml', () => {
  it('runs the six services of the appliance, the SIP ban among them; the cluster profile’s start only with the profile', () => {
    const always = Object.entries(compose.services).filter(([, s]) => !s.profiles).map(([name]) => name);
    expect(always.sort()).toEqual([...ONE_BOX].sort());
    for (const name of CLUSTER) expect(compose.services[name]?.profiles, name).toEqual(['cluster']);
    expect(Object.keys(compose.services).sort()).toEqual([...ONE_BOX, ...CLUSTER].sort());
  });

  it('bans SIP scanners by default (SIP_BAN on unless .env says off), told every trunk host Asterisk is', () => {
    const { fail2ban } = compose.services as Record<string, Service>;
    expect(interpolate(fail2ban!.environment!.SIP_BAN!)).toBe('on');
    expect(interpolate(fail2ban!.environment!.SIP_BAN!, { SIP_BAN: 'off' })).toBe('off');
    for (const name of ['SIP_TRUNKS', 'SIP_REG_SERVER', 'SIP_UKDID_HOST', 'SIP_UKDID_MATCH', 'SIP_TWILIO_TERMINATION', 'SIP_ALLOW_FROM', 'SIP_LOCAL_NET']) {
      expect(fail2ban!.environment![name], name).toBe(asterisk!.environment![name]);
    }
    expect(mount(fail2ban!, 'asterisk-log')).toEqual({ target: '/var/log/asterisk', readOnly: true });
    expect(fail2ban!.healthcheck!.test).toEqual(['CMD', '/usr/local/bin/fail2ban-healthcheck.sh']);
  });

  it('gives every service a healthcheck', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      expect(service.healthcheck?.test, name).toBeDefined();
      expect(service.healthcheck!.test[0], name).toMatch(/^CMD/);
    }
  });

  it('starts the core only once asterisk, ollama, whisper and piper are healthy', () => {
    expect(core!.depends_on).toEqual({
      asterisk: { condition: 'service_healthy' },
      ollama: { condition: 'service_healthy' },
      whisper: { condition: 'service_healthy' },
      piper: { condition: 'service_healthy' },
    });
  });

  it('shares the prompt cache: written by the core, played by Asterisk as sound:appliance/<key>', () => {
    const dataDir = core!.environment!.DATA_DIR!;
    expect(mount(core!, 'prompts')).toEqual({ target: `${dataDir}/prompts`, readOnly: false });
    expect(mount(asterisk!, 'prompts')).toEqual({ target: `/var/lib/asterisk/sounds/${PROMPTS_SOUND_DIR}`, readOnly: true });
  });

  it('keeps data and recordings on named volumes', () => {
    expect(mount(core!, 'data')?.target).toBe(core!.environment!.DATA_DIR);
    expect(mount(core!, 'recordings')?.target).toBe(`${core!.environment!.DATA_DIR}/recordings`);
    for (const v of ['data', 'recordings', 'prompts']) expect(compose.volumes).toHaveProperty(v);
    for (const s of Object.values(compose.services)) {
      for (const v of s.volumes ?? []) expect(compose.volumes, v).toHaveProperty(v.split(':')[0]!);
    }
  });

  it('points the core at Asterisk’s ARI and the engines by service name', () => {
    const env = core!.environment!;
    expect(env.ARI_URL).toBe('http://asterisk:8088');
    expect(env.OLLAMA_URL).toBe('http://ollama:11434');
    expect(env.WHISPER_URL).toBe('http://whisper:8080');
    expect(env.PIPER_URL).toBe('http://piper:5000');
    // The core's config accepts what compose gives it (with only the required secret set).
    const resolved = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, interpolate(v, { ARI_PASSWORD: 'x' })]));
    expect(() => loadConfig(resolved)).not.toThrow();
  });

  it('gives both sides the same ARI credentials and app name, from .env', () => {
    const defaults = loadConfig({}).ari;
    for (const key of ['ARI_USERNAME', 'ARI_PASSWORD', 'ARI_APP']) {
      expect(asterisk!.environment![key], key).toBe(core!.environment![key]);
      expect(asterisk!.environment![key], key).toMatch(new RegExp(`^\\$\\{${key}[:}]`));
    }
    expect(interpolate(core!.environment!.ARI_APP!)).toBe(defaults.app);
    expect(interpolate(core!.environment!.ARI_USERNAME!)).toBe(defaults.username);
    expect(() => interpolate(core!.environment!.ARI_PASSWORD!)).toThrow(/ARI_PASSWORD is required/);
    expect(core!.env_file).toBe('.env');
  });

  it('documents every setting Asterisk, Kamailio, PostgreSQL, fail2ban and Piper take from .env in asterisk.conf.example', () => {
    const example = fs.readFileSync(path.join(root, 'asterisk.conf.example'), 'utf8');
    const documented = new Set([...example.matchAll(/^#?\s*([A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const used = ['proxy', 'asterisk', 'asterisk-b', 'kamailio', 'postgres', 'fail2ban', 'piper']
      .flatMap((name) => [...Object.values(compose.services[name]!.environment ?? {}), ...Object.values(compose.services[name]!.build?.args ?? {})])
      .flatMap((v) => [...v.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]!));
    for (const name of used) expect(documented, name).toContain(name);
  });

  it('publishes SIP, RTP and the console over HTTPS only, from docker-compose.ports.yml, which .env adds', () => {
    expect(asterisk!.ports ?? []).toEqual([]);
    expect(core!.ports ?? []).toEqual([]);
    expect(proxy!.ports ?? []).toEqual([]);
    expect(published.asterisk!.ports).toEqual(['5060:5060/udp', '5060:5060/tcp', '5061:5061/tcp', '${RTP_PORTS:-10000-10199}:${RTP_PORTS:-10000-10199}/udp']);
    // The range Asterisk is given is the one published.
    expect(asterisk!.environment!.RTP_PORTS).toBe('${RTP_PORTS:-10000-10199}');
    // The console's port is the proxy's: 80 (redirect, ACME) and 443; the core's 3000 nowhere.
    expect(published.proxy!.ports).toEqual(['80:80/tcp', '443:443/tcp', '443:443/udp']);
    expect(Object.keys(published)).toEqual(['asterisk', 'proxy']);
    const example = fs.readFileSync(path.join(root, 'asterisk.conf.example'), 'utf8');
    expect(example).toMatch(/^COMPOSE_FILE=docker-compose\.yml:docker-compose\.ports\.yml$/m);
  });

  it('puts the core behind the proxy alone: in its network namespace, on loopback, trusting only it', () => {
    expect(core!.network_mode).toBe('service:proxy');
    expect(core!.environment!.HOST).toBe('127.0.0.1');
    expect(core!.environment!.TRUST_PROXY).toBe('127.0.0.1');
    expect(proxy!.environment!.CORE_UPSTREAM).toBe(`127.0.0.1:${core!.environment!.PORT}`);
    // Asterisk reaches the core's agent RTP at the namespace's name on the network.
    expect(core!.environment!.AGENT_RTP_HOST).toBe('proxy');
    expect(() => interpolate(proxy!.environment!.PUBLIC_URL!)).toThrow(/PUBLIC_URL is required/);
    expect(interpolate(proxy!.environment!.TLS_MODE!)).toBe('acme');
    // Caddy's certificates, ACME account and local CA survive a restart.
    expect(mount(proxy!, 'caddy-data')).toEqual({ target: '/data', readOnly: false });
  });

  it('builds from Dockerfiles that exist, and pins the Ollama image', () => {
    for (const s of [asterisk!, core!, whisper!, proxy!, piper!]) {
      const file = path.join(root, s.build!.context, s.build!.dockerfile ?? 'Dockerfile');
      expect(fs.existsSync(file), file).toBe(true);
    }
    expect(ollama!.image).toMatch(/^ollama\/ollama:\d+\.\d+\.\d+$/);
  });
});

describe('docker-compose.yml, profile cluster (docs/cluster.md)', () => {
  const { kamailio, postgres } = compose.services as Record<string, Service>;
  const asteriskB = compose.services['asterisk-b']!;
  const coreB = compose.services['core-b']!;
  const clusterPorts = readCompose('docker-compose.cluster-ports.yml').services;

  it('node B is node A’s images and settings, with its own name, ARI, RTP range and volumes', () => {
    expect(asteriskB.build).toEqual(asterisk!.build);
    expect(coreB.build).toEqual(core!.build);
    expect(asteriskB.environment).toEqual({ ...asterisk!.environment, NODE_NAME: '${NODE_B_NAME:-node-b}', RTP_PORTS: '${NODE_B_RTP_PORTS:-10200-10399}' });
    expect(coreB.environment).toEqual({
      ...core!.environment,
      NODE_NAME: '${NODE_B_NAME:-node-b}',
      ARI_URL: 'http://asterisk-b:8088',
      AGENT_RTP_HOST: 'core-b',
      // No proxy in front of node B: on the network, trusting no forwarder.
      HOST: '0.0.0.0',
      TRUST_PROXY: '${TRUST_PROXY:-off}',
    });
    expect(coreB.env_file).toBe(core!.env_file);
    expect(asteriskB.healthcheck).toEqual(asterisk!.healthcheck);
    expect(coreB.healthcheck).toEqual(core!.healthcheck);
  });

  it('shares the recordings volume between the cores; prompts and the Asterisk spool are each node’s own', () => {
    expect(mount(coreB, 'recordings')).toEqual(mount(core!, 'recordings'));
    expect(mount(coreB, 'data')).toBeUndefined();
    expect(mount(coreB, 'data-b')).toEqual(mount(core!, 'data'));
    expect(mount(coreB, 'prompts-b')).toEqual(mount(core!, 'prompts'));
    expect(mount(asteriskB, 'prompts-b')).toEqual(mount(asterisk!, 'prompts'));
    expect(mount(asteriskB, 'asterisk-spool-b')).toEqual(mount(asterisk!, 'asterisk-spool'));
    expect(mount(asteriskB, 'prompts')).toBeUndefined();
    expect(mount(postgres!, 'postgres')?.target).toBe('/var/lib/postgresql/data');
  });

  it('starts core-b once its Asterisk and PostgreSQL are healthy, Kamailio once both Asterisks are started', () => {
    expect(coreB.depends_on).toEqual({ ...core!.depends_on, asterisk: undefined, 'asterisk-b': { condition: 'service_healthy' }, postgres: { condition: 'service_healthy' } });
    expect(kamailio!.depends_on).toEqual({ asterisk: { condition: 'service_started' }, 'asterisk-b': { condition: 'service_started' } });
    expect(interpolate(kamailio!.environment!.KAMAILIO_NODES!)).toBe('asterisk:5060,asterisk-b:5060');
  });

  it('publishes Kamailio’s SIP, each node’s own RTP range and both consoles, and no Asterisk’s SIP', () => {
    expect(Object.keys(clusterPorts).sort()).toEqual(['asterisk', 'asterisk-b', 'core-b', 'kamailio', 'proxy']);
    expect(clusterPorts.kamailio!.ports).toEqual(['5060:5060/udp']);
    const rtpB = interpolate(asteriskB.environment!.RTP_PORTS!);
    expect(clusterPorts['asterisk-b']!.ports!.map((p) => interpolate(p))).toEqual([`${rtpB}:${rtpB}/udp`]);
    // SIP (and SIP over TLS, which the cluster's Kamailio does not carry) goes through Kamailio.
    expect(clusterPorts.asterisk!.ports).toEqual(published.asterisk!.ports!.filter((p) => !p.startsWith('5060:') && !p.startsWith('5061:')));
    expect(clusterPorts.proxy!.ports).toEqual(published.proxy!.ports);
    // Node B has no proxy: its console only on the host's loopback.
    expect(clusterPorts['core-b']!.ports).toEqual(['127.0.0.1:${CONSOLE_B_PORT:-3001}:3000']);
    for (const name of CLUSTER) expect(compose.services[name]!.ports ?? [], name).toEqual([]);
  });

  it('builds Kamailio and PostgreSQL from Debian’s packages, on the base the other images use', () => {
    const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');
    for (const [service, pkg] of [
      [kamailio!, 'kamailio'],
      [postgres!, 'postgresql-15'],
    ] as const) {
      const file = read(path.join(service.build!.context, 'Dockerfile'));
      expect(file).toMatch(/^FROM debian:bookworm-slim$/m);
      expect(file).toMatch(new RegExp(`apt-get install -y --no-install-recommends ${pkg}\\b`));
      expect(file).toMatch(/^USER (kamailio|postgres)$/m);
    }
  });
});

describe('Dockerfiles', () => {
  const read = (p: string) => fs.readFileSync(path.join(root, p), 'utf8');

  it('builds the core in two stages with the locked npm install and runs it as a non-root user', () => {
    const file = read('deploy/core/Dockerfile');
    expect(file.match(/^FROM node:24-bookworm-slim\b/gm)).toHaveLength(2);
    expect(file).toContain('npm install --no-audit --no-fund');
    expect(file).toContain('npm run build');
    // Issue 60 item 6: production dependencies only, trimmed, before the runtime stage copies them.
    expect(file).toMatch(/npm prune --omit=dev --no-audit --no-fund \\\n\s+&& sh deploy\/core\/slim-runtime\.sh/);
    expect(file).toMatch(/^USER node$/m);
    expect(file).toContain('dist/root/main.js');
  });

  it('lets the core (uid 1000) write the prompts volume whichever container creates it', () => {
    expect(read('deploy/core/Dockerfile')).toMatch(/chown -R node:node \/data/);
    expect(read('deploy/asterisk/Dockerfile')).toMatch(/chown 1000:1000 \/var\/lib\/asterisk\/sounds\/appliance/);
  });

  it('builds whisper.cpp from a pinned tag and checks the model it downloads', () => {
    const file = read('deploy/whisper/Dockerfile');
    expect(file).toMatch(/ARG WHISPER_CPP_VERSION=v\d+\.\d+\.\d+/);
    expect(file).toMatch(/ARG WHISPER_MODEL_SHA1=[0-9a-f]{40}/);
    expect(file).toMatch(/sha1sum -c/);
    expect(read('deploy/whisper/fetch-model.sh')).toMatch(/sha256sum -c/);
  });

  it('defaults to a multilingual model with a pinned SHA-256 on whisper.cpp v1.7.6 or later (issue 42: language_probabilities)', () => {
    const file = read('deploy/whisper/Dockerfile');
    const [major, minor, patch] = file.match(/ARG WHISPER_CPP_VERSION=v(\d+)\.(\d+)\.(\d+)/)!.slice(1).map(Number) as [number, number, number];
    expect(major * 1e6 + minor * 1e3 + patch).toBeGreaterThanOrEqual(1_007_006);
    const model = file.match(/ARG WHISPER_MODEL=(\S+)/)![1]!;
    expect(model.endsWith('.en')).toBe(false);
    expect(whisper!.build?.args?.WHISPER_MODEL).toBe(`\${WHISPER_MODEL:-${model}}`);
    // fetch-model.sh refuses a model without a pinned hash: the default must have one.
    expect(read('deploy/whisper/fetch-model.sh')).toMatch(new RegExp(`^\\s+${model.replace('.', '\\.')}\\)\\s+known=[0-9a-f]{64} ;;$`, 'm'));
  });

  it('has shell scripts that parse', async () => {
    const { spawnSync } = await import('node:child_process');
    for (const script of ['deploy/asterisk/entrypoint.sh', 'deploy/asterisk/healthcheck.sh', 'deploy/kamailio/entrypoint.sh', 'deploy/postgres/entrypoint.sh', 'deploy/whisper/fetch-model.sh', 'deploy/fail2ban/entrypoint.sh', 'deploy/fail2ban/healthcheck.sh', 'deploy/core/slim-runtime.sh']) {
      const r = spawnSync('sh', ['-n', path.join(root, script)], { encoding: 'utf8' });
      expect(r.status, `${script}: ${r.stderr}`).toBe(0);
    }
  });
});
