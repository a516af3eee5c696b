import net from 'node:net';
import path from 'node:path';
import cron from 'node-cron';
import { maskUrl } from '../../contract/mask-url.js';
import { isE164 } from '../../contract/phone.js';
import { LEG_PRESENTS } from '../../contract/enums.js';
import { PAYMENT_LIMITS, TEAM_LIMITS, WEBSITE_LIMITS } from '../../contract/rules.js';
import { DEFAULT_OUTBOUND_POLICY, type OutboundPolicy } from '../outbound/permit.js';
import { canonicalHost } from '../webhooks/named-hosts.js';
import type { DatabaseSetting } from '../db/setting.js';

/** Which number provider backs `/dashboard/{provider}-numbers`. */
export type NumberProviderName = 'twilio' | 'static';
type TtsEngineName = 'piper' | 'espeak-ng';
/** One server of an engine and the requests it serves at once. */
interface EngineEndpoint {
  url: string;
  slots: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /**
   * Where the data lives (DATABASE_URL): unset → the SQLite file under DATA_DIR, as every
   * one-box appliance has it; postgres:// or postgresql:// → that PostgreSQL database.
   */
  database: DatabaseSetting;
  /**
   * NODE_NAME: this core and its Asterisk in a cluster (docs/cluster.md). Calls are tagged
   * with it, so a core reconciling after a reconnection finishes only its own Asterisk's
   * calls, and recordings still on an Asterisk are fetched by the core attached to it.
   * Every core of a cluster needs its own; a one-box appliance keeps the default.
   */
  node: string;
  publicUrl: string;
  /** Set when the console is reached through HTTPS (cookies get `Secure`). */
  secureCookies: boolean;
  admin: { email?: string; password?: string };
  support: { name: string; email: string };
  mail: { smtpUrl?: string; from: string };
  ari: { url?: string; username: string; password: string; app: string };
  /**
   * A TURN server for the console's test calls when the box is behind NAT (TURN_URL, e.g.
   * turn:box.example.co.uk:3478; TURN_SECRET, coturn's static-auth-secret): each call gets
   * time-limited credentials (docs/call-my-line.md). Unset: browsers reach Asterisk directly.
   */
  turn?: { url: string; secret: string };
  /**
   * Agent mode's RTP: the address the core's sockets bind to (AGENT_RTP_BIND) and the one
   * Asterisk sends the call audio to (AGENT_RTP_HOST; a name is resolved to an IP before use).
   */
  agentRtp: { bind: string; host?: string };
  /**
   * Agent mode when the engines stall on a turn (pbx/flows/agent/stall-rule.ts), from the end
   * of the caller's speech: the holding phrase (AGENT_HOLD_AFTER_MS), then the voicemail offer
   * and the tone (AGENT_VOICEMAIL_AFTER_MS).
   */
  agentStall: { holdMs: number; voicemailMs: number };
  /**
   * Admission before answering (pbx/admission/): past any of these a new caller is refused
   * with SIP 503 before the answer; 0 turns a limit off. Calls already answered always finish.
   */
  admission: {
    maxCalls: number;
    maxLoopLagMs: number;
    maxJobsWaiting: number;
    /** Set-up rate (pbx/admission/setup-watch.ts): most new calls a second (fractions allowed); 0 off. */
    maxSetupsPerSecond: number;
    /** Set-up rate as observed: refuse while answers come this late after the call arrived; 0 off. */
    lateAnswerMs: number;
  };
  /**
   * Putting callers through to the owner (OUTBOUND_ENDPOINT): the Asterisk dial string with
   * {number} (E.164) or {national} where the owner's number goes; unset → no transfers.
   * `allow` (OUTBOUND_ALLOW): E.164 prefixes dialled beyond UK mobiles and landlines;
   * `dailyMinutes` (OUTBOUND_DAILY_MINUTES): each owner's minutes of placed calls per day;
   * `answeredMaxSeconds` (PUT_THROUGH_MAX_SECONDS): the longest such a call lasts once answered.
   * `presents` (OUTBOUND_PRESENT_CALLER): what a call to a person's phone shows as its caller,
   * the caller's own number or the appliance number called (pbx/flows/transfer/leg-caller-id.ts).
   */
  outbound: { endpoint?: string; presents: (typeof LEG_PRESENTS)[number] } & OutboundPolicy;
  /**
   * "Check my forwarding" (FORWARDING_CHECK_SECONDS): how long the check's call to the owner's
   * line rings, waiting for it to come back forwarded ("when unanswered" forwards after up to 30 s of ringing).
   */
  forwardingCheck: { waitSeconds: number };
  /**
   * Texts to callers (core/caller-texts): CALLER_TEXTS_DAILY_PER_OWNER caps each business's texts
   * to its callers per London day, CALLER_TEXTS_DAILY_BOX the whole appliance's (0 = none sent).
   */
  callerTexts: { dailyPerOwner: number; dailyBox: number };
  /**
   * The agent's call-backs (core/call-backs-dial, issue 56): how often due ones are looked for
   * (CALL_BACK_SWEEP_MS), and how long one waits when the PBX had no agent slot free for it or
   * its link was down (CALL_BACK_NO_SLOT_WAIT_MS; no try is counted).
   */
  callBacks: { sweepMs: number; noSlotWaitMs: number };
  /** The team (docs/team.md): TEAM_MAX_STAFF, the people a business may add besides the owner. */
  team: { maxStaff: number };
  /**
   * Learning from the owner's website (docs/website.md): WEBSITE_CRAWL_PAUSE_MS between two
   * requests to the site, WEBSITE_DAILY_CRAWLS crawls a business may start per London day.
   */
  website: { pauseMs: number; dailyCrawls: number };
  /**
   * Money (docs/payments.md). `apiBase` (STRIPE_API_BASE): where the Stripe SDK sends its
   * requests, e.g. a test double on loopback; unset = Stripe itself. `billing` (BILLING=stripe):
   * the operator's own £39/month collected through their Stripe account, with
   * STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET (the signing secret of the endpoint
   * PUBLIC_URL/api/stripe/webhooks/billing) and STRIPE_PRICE_ID (the monthly price);
   * BILLING_GRACE_DAYS: how long the line keeps answering after a failed payment. Unset: SPEC's
   * manual trials, exactly as they are. Owners' deposits need no setting: each owner connects
   * their own account in the console.
   */
  stripe: { apiBase?: string; billing?: { secretKey: string; webhookSecret: string; priceId: string; graceDays: number } };
  /**
   * CALENDAR_ALLOWED_PRIVATE_HOSTS: host names or addresses an owner's CalDAV or iCal address may
   * name although they resolve inside the network (a LAN calendar server); none by default,
   * so calendars reach public internet addresses only. Canonical forms (named-hosts.ts).
   */
  calendars: { allowedPrivateHosts: string[] };
  /**
   * Push alerts (issue 54, docs/live.md): PUSH_VAPID_FILE, where the box's VAPID key pair is kept
   * (made at first start, mode 0600; default DATA_DIR/push-vapid.json). A cluster's cores must
   * share one file: a device's subscription is bound to the public key.
   */
  push: { vapidFile: string };
  /**
   * JOB_LEASE_SECONDS: how long a post-call job stays claimed by a core that stopped renewing
   * it (it renews every fifth of it while it works). In a cluster, how soon another core takes
   * over the jobs of a core that died.
   */
  jobs: { leaseMs: number };
  /**
   * SIGTERM (root/main.ts): calls in progress get `drainMs` (STOP_DRAIN_SECONDS) to finish;
   * the process ends at the latest STOP_AFTER_DRAIN_MS after it, whatever is still pending.
   */
  stop: { drainMs: number };
  /** One or more Ollama servers (OLLAMA_URL, comma-separated), each with its slots (OLLAMA_SLOTS). */
  ollama: {
    endpoints: EngineEndpoint[];
    model: string;
    /**
     * OLLAMA_NUM_CTX: the context window asked for on every request (Ollama's own default, 2,048
     * or 4,096 by version, silently cuts the front of a longer prompt). Default 8,192: the agent's
     * prompt with a whole knowledge base (a caller in another language gets it whole,
     * dialogue/agent/knowledge-selection.ts; 2,000 words ≈ 3,000 tokens, models/llm/token-estimate.ts),
     * its rules and a long call's dialogue, with room left for the reply.
     */
    numCtx: number;
  };
  /**
   * The slow-box guard (pbx/admission/slow-box-rule.ts, issue 60): past AGENT_SLOW_P50_MS as the
   * median end of speech → first audio of the node's last 20 agent turns, new agent calls are
   * answered in voicemail mode with the owner's greeting (0 turns it off); while closed, one new
   * agent call in every AGENT_SLOW_TRIAL_EVERY is let through to measure a recovery.
   */
  agentSlow: { p50LimitMs: number; trialEvery: number };
  /** whisper.cpp servers (WHISPER_URL, comma-separated; none = transcription waits), each with WHISPER_SLOTS. */
  whisper: { endpoints: EngineEndpoint[]; model?: string };
  tts: { engine?: TtsEngineName; piperBin: string; piperVoicesDir?: string; piperUrl?: string; slots: number };
  /**
   * The box's self-test of its own engines (core/self-test, SELF_TEST=on|off). Default: on when
   * WHISPER_URL is set (the compose stack), off otherwise (`npm start`'s embedded defaults have
   * no Whisper to test, and a developer's machine is not the hardware callers will meet).
   */
  selfTest: { enabled: boolean };
  /**
   * $DATA_DIR/prompts, the speech Asterisk plays (greetings, the agent's sentences): its cap
   * (PROMPTS_MAX_MB) and how often it is measured again (PROMPTS_MEASURE_SECONDS).
   */
  prompts: { maxBytes: number; measureEveryMs: number };
  twilio: {
    accountSid?: string;
    authToken?: string;
    apiBase?: string;
    messagingFrom?: string;
    /** With NUMBER_PROVIDER=twilio: where bought numbers send their calls (Elastic SIP trunk, or a voice webhook). */
    trunkSid?: string;
    voiceUrl?: string;
    /** With NUMBER_PROVIDER=twilio: the approved UK regulatory bundle and the address UK numbers are bought with. */
    bundleSid?: string;
    addressSid?: string;
  };
  numbers: { provider: NumberProviderName; staticNumbers: string[]; monthlyCostPence: number };
  backup: { dir: string; schedule: string; keep: number };
  /** Defaults until an admin sets a policy in the console/API (null = keep). */
  retention: { recordingDays: number | null; transcriptDays: number | null };
  /** Bearer token for /metrics; unset → /metrics is off. */
  metricsToken?: string;
  logLevel: string;
  /**
   * Which peers may say who the client is (X-Forwarded-For/-Proto/-Host): false (nobody, the
   * default) or the reverse proxy's addresses/CIDRs. Per-IP limits key on the result.
   */
  trustProxy: false | string[];
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function turnSettings(env: Env): Config['turn'] {
  const turnUrl = text(env, 'TURN_URL');
  const secret = text(env, 'TURN_SECRET');
  if (!turnUrl && !secret) return undefined;
  if (!turnUrl || !/^turns?:[^\s]+$/.test(turnUrl)) throw new ConfigError('TURN_URL', `must be a TURN address such as turn:box.example.co.uk:3478 when TURN_SECRET is set (got "${maskUrl(turnUrl ?? '')}")`);
  if (!secret) throw new ConfigError('TURN_SECRET', 'must be set with TURN_URL: coturn’s static-auth-secret');
  return { url: turnUrl, secret };
}

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

/** A rate a second: a decimal from 0 (off) to 1000, so that one call in 10 s is 0.1. */
function rate(env: Env, name: string): number {
  const raw = text(env, name);
  if (raw === undefined) return 0;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > 1000) throw new ConfigError(name, `must be a number of calls a second from 0 to 1000, e.g. 8 or 0.5 (got "${raw}")`);
  return Number(raw);
}

function url(env: Env, name: string, fallback?: string): string | undefined {
  const raw = text(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    if (!['http:', 'https:', 'smtp:', 'smtps:', 'ws:', 'wss:'].includes(u.protocol)) throw new Error();
  } catch {
    // The refused text may hold a password (scheme://user:password@host): shown masked.
    throw new ConfigError(name, `must be a URL such as http://host:port (got "${maskUrl(raw)}")`);
  }
  return raw.replace(/\/+$/, '');
}

/** DATABASE_URL: a PostgreSQL URL, or unset for the appliance's own SQLite file. */
function databaseSetting(env: Env, dataDir: string): DatabaseSetting {
  const raw = text(env, 'DATABASE_URL');
  if (raw === undefined) return { kind: 'sqlite', file: path.join(dataDir, 'appliance.db') };
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    // The URL may hold a password: say what is wrong without echoing it.
    throw new ConfigError(
      'DATABASE_URL',
      'must be a PostgreSQL URL such as postgres://user:password@host:5432/appliance, or unset to keep the SQLite file under DATA_DIR',
    );
  }
  return { kind: 'postgres', url: raw };
}

/** A comma-separated list of URLs (each checked as `url` does); none → `fallback`. */
function urlList(env: Env, name: string, fallback?: string): string[] {
  const raw = text(env, name) ?? fallback;
  if (raw === undefined) return [];
  const urls = raw
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => url({ [name]: u }, name)!);
  if (new Set(urls).size !== urls.length) throw new ConfigError(name, `lists the same URL twice (got "${maskUrl(raw)}")`);
  return urls;
}

/**
 * Each endpoint's slots: one figure for all of them, or one per URL in the same order
 * (a GPU host beside a CPU one).
 */
function endpoints(env: Env, urlName: string, slotsName: string, defaultSlots: number, fallbackUrl?: string): EngineEndpoint[] {
  const urls = urlList(env, urlName, fallbackUrl);
  const raw = text(env, slotsName);
  const figures = raw === undefined ? [String(defaultSlots)] : raw.split(',').map((n) => n.trim());
  if (figures.length !== 1 && figures.length !== urls.length) {
    throw new ConfigError(slotsName, `must be one number, or one per ${urlName} entry (${urls.length}) (got "${raw}")`);
  }
  const slots = figures.map((f) => integer({ [slotsName]: f }, slotsName, defaultSlots, 1, 64));
  return urls.map((u, i) => ({ url: u, slots: slots[figures.length === 1 ? 0 : i]! }));
}

/** The default NODE_NAME; calls taken before nodes had names carry it too (drizzle/0020). */
export const DEFAULT_NODE = 'node-1';

function nodeName(env: Env): string {
  const name = text(env, 'NODE_NAME') ?? DEFAULT_NODE;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/.test(name)) {
    throw new ConfigError('NODE_NAME', `must be 1–32 letters, digits, "-" or "_", starting with a letter or digit (got "${name}")`);
  }
  return name;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

/** A number of days, or `keep` for no limit. */
function days(env: Env, name: string, fallback: number): number | null {
  if (text(env, name) === 'keep') return null;
  return integer(env, name, fallback, 1, 3650);
}

function cronExpression(env: Env, name: string, fallback: string): string {
  const raw = text(env, name) ?? fallback;
  if (raw === 'off') return raw;
  if (!cron.validate(raw)) throw new ConfigError(name, `must be a cron expression such as "30 2 * * *", or off (got "${raw}")`);
  return raw;
}

function pounds(env: Env, name: string, fallback: string): number {
  const raw = text(env, name) ?? fallback;
  if (!/^\d+(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, `must be an amount in pounds such as 1.00 (got "${raw}")`);
  // Money is kept in pence so sums never drift.
  return Math.round(Number(raw) * 100);
}

function twilioSid(env: Env, name: string, prefix: string): string | undefined {
  const raw = text(env, name);
  if (raw !== undefined && !new RegExp(`^${prefix}[0-9a-fA-F]{32}$`).test(raw)) {
    throw new ConfigError(name, `must be a Twilio SID starting ${prefix} followed by 32 hex characters (got "${raw}")`);
  }
  return raw;
}

/**
 * Buying UK numbers on Twilio needs an approved regulatory bundle and an address, and each number
 * must send its calls to this appliance (an Elastic SIP trunk, or a voice URL); without them every
 * purchase would fail at Twilio, so they are required when Twilio is the number provider.
 */
function twilioNumberSettings(env: Env, required: boolean) {
  const s = {
    trunkSid: twilioSid(env, 'TWILIO_TRUNK_SID', 'TK'),
    voiceUrl: url(env, 'TWILIO_VOICE_URL'),
    bundleSid: twilioSid(env, 'TWILIO_BUNDLE_SID', 'BU'),
    addressSid: twilioSid(env, 'TWILIO_ADDRESS_SID', 'AD'),
  };
  if (!required) return s;
  if (!s.bundleSid) throw new ConfigError('TWILIO_BUNDLE_SID', 'is required with NUMBER_PROVIDER=twilio: UK numbers are bought with an approved regulatory bundle (BU…)');
  if (!s.addressSid) throw new ConfigError('TWILIO_ADDRESS_SID', 'is required with NUMBER_PROVIDER=twilio: UK numbers are bought with a registered address (AD…)');
  if (!s.trunkSid && !s.voiceUrl) {
    throw new ConfigError('TWILIO_TRUNK_SID', 'or TWILIO_VOICE_URL is required with NUMBER_PROVIDER=twilio: it is where bought numbers send their calls');
  }
  return s;
}

/** BILLING=stripe needs the operator's key, webhook secret and price: a box that could not charge must not start as if it could. */
function stripeSettings(env: Env): Config['stripe'] {
  const apiBase = url(env, 'STRIPE_API_BASE');
  if (oneOf(env, 'BILLING', ['stripe'] as const) === undefined) return { apiBase };
  const need = (name: string, prefixes: string[], what: string): string => {
    const v = text(env, name);
    if (v === undefined) throw new ConfigError(name, `is required with BILLING=stripe: ${what}`);
    if (!prefixes.some((p) => v.startsWith(p))) throw new ConfigError(name, `must start ${prefixes.join(' or ')} (got "${v.slice(0, 6)}…")`);
    return v;
  };
  return {
    apiBase,
    billing: {
      secretKey: need('STRIPE_SECRET_KEY', ['sk_', 'rk_'], 'the secret (sk_…) or restricted (rk_…) key of your Stripe account'),
      webhookSecret: need('STRIPE_WEBHOOK_SECRET', ['whsec_'], 'the signing secret of the webhook endpoint PUBLIC_URL/api/stripe/webhooks/billing'),
      priceId: need('STRIPE_PRICE_ID', ['price_'], 'the monthly price (price_…) subscriptions are made with'),
      graceDays: integer(env, 'BILLING_GRACE_DAYS', PAYMENT_LIMITS.defaultGraceDays, 1, 60),
    },
  };
}

/** proxy-addr's names for the private ranges a compose network or a LAN proxy sits in. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: off by default, because trusting every peer lets any client choose the
 * address the per-IP limits count (it writes X-Forwarded-For itself). `true` is refused
 * for the same reason, and so is a hop count: Fastify cannot check the peer with one and
 * trusts nobody (fail closed), which would silently do nothing.
 */
function trustProxy(env: Env): false | string[] {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'off' || raw === 'false') return false;
  const entries = raw.split(',').map((e) => e.trim()).filter(Boolean);
  for (const e of entries) {
    const [address = '', bits, extra] = e.split('/');
    const family = net.isIP(address);
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!PROXY_RANGE_NAMES.has(e) && (family === 0 || !bitsOk || extra !== undefined)) {
      throw new ConfigError(
        'TRUST_PROXY',
        `must be off or the reverse proxy's addresses/CIDRs such as 172.18.0.0/16,loopback (got "${raw}")`,
      );
    }
  }
  return entries;
}

function allowedPrivateHosts(env: Env): string[] {
  const entries = (text(env, 'CALENDAR_ALLOWED_PRIVATE_HOSTS') ?? '').split(',').map((e) => e.trim()).filter(Boolean);
  return entries.map((e) => {
    const host = canonicalHost(e);
    if (!host) throw new ConfigError('CALENDAR_ALLOWED_PRIVATE_HOSTS', `must list host names or IP addresses such as nas.lan,192.168.1.20 (no ports, paths or ranges; got "${e}")`);
    return host;
  });
}

/** Reads and validates the whole configuration once; throws ConfigError naming the bad variable. */
/** Bound to every interface, Asterisk reaches the core by its compose service name, `core`. */
/** Why these figures: docs/configuration.md ("Engine pools"). */
export const DEFAULT_AGENT_STALL = { holdMs: 1200, voicemailMs: 8000 } as const;

function agentStallSettings(env: Env): Config['agentStall'] {
  const holdMs = integer(env, 'AGENT_HOLD_AFTER_MS', DEFAULT_AGENT_STALL.holdMs, 100, 60_000);
  const voicemailMs = integer(env, 'AGENT_VOICEMAIL_AFTER_MS', DEFAULT_AGENT_STALL.voicemailMs, 1000, 600_000);
  if (voicemailMs <= holdMs) {
    throw new ConfigError('AGENT_VOICEMAIL_AFTER_MS', `must be longer than AGENT_HOLD_AFTER_MS (${holdMs}): the holding phrase comes first (got "${voicemailMs}")`);
  }
  return { holdMs, voicemailMs };
}

function agentRtpSettings(env: Env): Config['agentRtp'] {
  const bind = text(env, 'AGENT_RTP_BIND') ?? '0.0.0.0';
  if (!net.isIPv4(bind)) throw new ConfigError('AGENT_RTP_BIND', `must be an IPv4 address to bind the agent's RTP sockets to (got "${bind}")`);
  return { bind, host: text(env, 'AGENT_RTP_HOST') ?? (bind === '0.0.0.0' ? 'core' : undefined) };
}

function outboundSettings(env: Env): Config['outbound'] {
  const allow = (text(env, 'OUTBOUND_ALLOW') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  for (const p of allow) {
    if (!/^\+[1-9]\d{0,14}$/.test(p)) throw new ConfigError('OUTBOUND_ALLOW', `must list E.164 prefixes such as +44800,+3531 (got "${p}")`);
  }
  const policy = {
    allow,
    dailyMinutes: integer(env, 'OUTBOUND_DAILY_MINUTES', DEFAULT_OUTBOUND_POLICY.dailyMinutes, 0, 1440),
    answeredMaxSeconds: integer(env, 'PUT_THROUGH_MAX_SECONDS', DEFAULT_OUTBOUND_POLICY.answeredMaxSeconds, 5, 14_400),
    // `called` by default: a trunk that takes only its own numbers in From (Twilio's) would refuse every put-through (docs/calls.md).
    presents: oneOf(env, 'OUTBOUND_PRESENT_CALLER', LEG_PRESENTS, 'called')!,
  };
  const endpoint = text(env, 'OUTBOUND_ENDPOINT');
  if (endpoint === undefined) return policy;
  if (!/^PJSIP\/\S+$/.test(endpoint)) throw new ConfigError('OUTBOUND_ENDPOINT', `must be a PJSIP dial string such as PJSIP/{number}@uk-did (got "${endpoint}")`);
  if (!endpoint.includes('{number}') && !endpoint.includes('{national}')) {
    throw new ConfigError('OUTBOUND_ENDPOINT', `must contain {number} or {national} where the owner's number goes (got "${endpoint}")`);
  }
  return { endpoint, ...policy };
}

/** Why these figures: docs/configuration.md ("Engine pools"). */
/**
 * A greeting is about 1 MiB and an agent sentence some 100 KiB: 512 MiB holds every owner's
 * greeting on a box of hundreds plus a day of agent speech, and is small beside the recordings.
 */
const DEFAULT_PROMPTS_MAX_MB = 512;

const DEFAULT_SLOTS = { ollama: 4, whisper: 1, tts: 2 } as const;

export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`)!;
  const staticNumbers = (text(env, 'STATIC_NUMBERS') ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const n of staticNumbers) {
    if (!isE164(n)) throw new ConfigError('STATIC_NUMBERS', `must list E.164 numbers such as +447700900001 (got "${n}")`);
  }
  const adminEmail = text(env, 'ADMIN_EMAIL');
  const adminPassword = text(env, 'ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD', 'must be at least 8 characters');
  }
  if (adminEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(adminEmail)) {
    throw new ConfigError('ADMIN_EMAIL', `must be an e-mail address (got "${adminEmail}")`);
  }
  const ariUrl = url(env, 'ARI_URL');
  const twilioSid = text(env, 'TWILIO_ACCOUNT_SID');
  const twilioToken = text(env, 'TWILIO_AUTH_TOKEN');
  if ((twilioSid === undefined) !== (twilioToken === undefined)) {
    throw new ConfigError(twilioSid ? 'TWILIO_AUTH_TOKEN' : 'TWILIO_ACCOUNT_SID', 'must be set together with its pair');
  }
  const provider = oneOf(env, 'NUMBER_PROVIDER', ['twilio', 'static'] as const, 'static')!;
  if (provider === 'twilio' && !twilioSid) {
    throw new ConfigError('NUMBER_PROVIDER', 'is twilio but TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN are not set');
  }
  const twilioNumbers = twilioNumberSettings(env, provider === 'twilio');

  const dataDir = path.resolve(text(env, 'DATA_DIR') ?? './data');

  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    database: databaseSetting(env, dataDir),
    node: nodeName(env),
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
    turn: turnSettings(env),
    admin: { email: adminEmail?.toLowerCase(), password: adminPassword },
    support: {
      name: text(env, 'SUPPORT_NAME') ?? 'Support Team',
      email: text(env, 'SUPPORT_EMAIL') ?? adminEmail ?? 'support@example.co.uk',
    },
    mail: { smtpUrl: url(env, 'SMTP_URL'), from: text(env, 'MAIL_FROM') ?? 'Call Answering <no-reply@localhost>' },
    ari: {
      url: ariUrl,
      username: text(env, 'ARI_USERNAME') ?? 'appliance',
      password: text(env, 'ARI_PASSWORD') ?? '',
      app: text(env, 'ARI_APP') ?? 'call-answering',
    },
    agentRtp: agentRtpSettings(env),
    agentStall: agentStallSettings(env),
    agentSlow: { p50LimitMs: integer(env, 'AGENT_SLOW_P50_MS', 2000, 0, 600_000), trialEvery: integer(env, 'AGENT_SLOW_TRIAL_EVERY', 5, 2, 1000) },
    admission: {
      maxCalls: integer(env, 'ADMISSION_MAX_CALLS', 0, 0, 100_000),
      maxLoopLagMs: integer(env, 'ADMISSION_MAX_LOOP_LAG_MS', 0, 0, 600_000),
      maxJobsWaiting: integer(env, 'ADMISSION_MAX_JOBS_WAITING', 0, 0, 10_000_000),
      maxSetupsPerSecond: rate(env, 'ADMISSION_MAX_SETUPS_PER_SECOND'),
      lateAnswerMs: integer(env, 'ADMISSION_LATE_ANSWER_MS', 0, 0, 60_000),
    },
    outbound: outboundSettings(env),
    forwardingCheck: { waitSeconds: integer(env, 'FORWARDING_CHECK_SECONDS', 60, 5, 300) },
    callerTexts: {
      dailyPerOwner: integer(env, 'CALLER_TEXTS_DAILY_PER_OWNER', 50, 0, 100_000),
      dailyBox: integer(env, 'CALLER_TEXTS_DAILY_BOX', 1000, 0, 10_000_000),
    },
    callBacks: {
      sweepMs: integer(env, 'CALL_BACK_SWEEP_MS', 15_000, 1000, 3_600_000),
      noSlotWaitMs: integer(env, 'CALL_BACK_NO_SLOT_WAIT_MS', 60_000, 1000, 3_600_000),
    },
    team: { maxStaff: integer(env, 'TEAM_MAX_STAFF', TEAM_LIMITS.defaultMaxStaff, 0, 500) },
    website: {
      pauseMs: integer(env, 'WEBSITE_CRAWL_PAUSE_MS', WEBSITE_LIMITS.defaultPauseMs, 0, 60_000),
      dailyCrawls: integer(env, 'WEBSITE_DAILY_CRAWLS', WEBSITE_LIMITS.defaultDailyCrawls, 0, 1000),
    },
    calendars: { allowedPrivateHosts: allowedPrivateHosts(env) },
    push: { vapidFile: path.resolve(text(env, 'PUSH_VAPID_FILE') ?? path.join(dataDir, 'push-vapid.json')) },
    stripe: stripeSettings(env),
    jobs: { leaseMs: integer(env, 'JOB_LEASE_SECONDS', 90, 10, 3600) * 1000 },
    stop: { drainMs: integer(env, 'STOP_DRAIN_SECONDS', 25, 1, 600) * 1000 },
    ollama: { endpoints: endpoints(env, 'OLLAMA_URL', 'OLLAMA_SLOTS', DEFAULT_SLOTS.ollama, 'http://127.0.0.1:11434'), model: text(env, 'OLLAMA_MODEL') ?? 'llama3.2:3b', numCtx: integer(env, 'OLLAMA_NUM_CTX', 8192, 512, 131_072) },
    whisper: { endpoints: endpoints(env, 'WHISPER_URL', 'WHISPER_SLOTS', DEFAULT_SLOTS.whisper), model: text(env, 'WHISPER_MODEL') },
    selfTest: { enabled: oneOf(env, 'SELF_TEST', ['on', 'off'] as const, text(env, 'WHISPER_URL') ? 'on' : 'off') === 'on' },
    tts: {
      slots: integer(env, 'TTS_SLOTS', DEFAULT_SLOTS.tts, 1, 64),
      engine: oneOf(env, 'TTS_ENGINE', ['piper', 'espeak-ng'] as const),
      piperBin: text(env, 'PIPER_BIN') ?? 'piper',
      piperVoicesDir: text(env, 'PIPER_VOICES_DIR'),
      // The Piper service (deploy/piper, issue 60): unset keeps the CLI-or-espeak-ng choice above.
      piperUrl: url(env, 'PIPER_URL'),
    },
    prompts: {
      maxBytes: integer(env, 'PROMPTS_MAX_MB', DEFAULT_PROMPTS_MAX_MB, 16, 1_048_576) * 1024 * 1024,
      measureEveryMs: integer(env, 'PROMPTS_MEASURE_SECONDS', 300, 10, 86_400) * 1000,
    },
    twilio: {
      accountSid: twilioSid,
      authToken: twilioToken,
      apiBase: url(env, 'TWILIO_API_BASE'),
      messagingFrom: text(env, 'TWILIO_MESSAGING_FROM'),
      ...twilioNumbers,
    },
    numbers: {
      provider,
      staticNumbers,
      monthlyCostPence: pounds(env, 'NUMBER_MONTHLY_COST', '1.00'),
    },
    backup: {
      dir: path.resolve(text(env, 'BACKUP_DIR') ?? path.join(text(env, 'DATA_DIR') ?? './data', 'backups')),
      schedule: cronExpression(env, 'BACKUP_SCHEDULE', '30 2 * * *'),
      keep: integer(env, 'BACKUP_KEEP', 7, 1, 365),
    },
    retention: {
      recordingDays: days(env, 'RETENTION_RECORDING_DAYS', 90),
      transcriptDays: days(env, 'RETENTION_TRANSCRIPT_DAYS', 365),
    },
    metricsToken: text(env, 'METRICS_TOKEN'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info')!,
    trustProxy: trustProxy(env),
  };
}
