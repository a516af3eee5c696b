import path from 'node:path';

/** Which number provider backs `/dashboard/{provider}-numbers`. */
export type NumberProviderName = 'twilio' | 'static';
export type TtsEngineName = 'piper' | 'espeak-ng';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  /** Set when the console is reached through HTTPS (cookies get `Secure`). */
  secureCookies: boolean;
  admin: { email?: string; password?: string };
  support: { name: string; email: string };
  mail: { smtpUrl?: string; from: string };
  ari: { url?: string; username: string; password: string; app: string };
  ollama: { url: string; model: string };
  whisper: { url?: string; model?: string };
  tts: { engine?: TtsEngineName; piperBin: string; piperVoicesDir?: string };
  twilio: { accountSid?: string; authToken?: string; apiBase?: string; messagingFrom?: string };
  numbers: { provider: NumberProviderName; staticNumbers: string[]; monthlyCostPence: number };
  logLevel: string;
}

export class ConfigError extends Error {
  constructor(readonly variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

const E164 = /^\+[1-9]\d{6,14}$/;

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

function url(env: Env, name: string, fallback?: string): string | undefined {
  const raw = text(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    if (!['http:', 'https:', 'smtp:', 'smtps:', 'ws:', 'wss:'].includes(u.protocol)) throw new Error();
  } catch {
    throw new ConfigError(name, `must be a URL such as http://host:port (got "${raw}")`);
  }
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback?: T): T | undefined {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function pounds(env: Env, name: string, fallback: string): number {
  const raw = text(env, name) ?? fallback;
  if (!/^\d+(\.\d{1,2})?$/.test(raw)) throw new ConfigError(name, `must be an amount in pounds such as 1.00 (got "${raw}")`);
  // Money is kept in pence so sums never drift.
  return Math.round(Number(raw) * 100);
}

/** Reads and validates the whole configuration once; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`)!;
  const staticNumbers = (text(env, 'STATIC_NUMBERS') ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  for (const n of staticNumbers) {
    if (!E164.test(n)) throw new ConfigError('STATIC_NUMBERS', `must list E.164 numbers such as +447700900001 (got "${n}")`);
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

  return {
    port,
    host: text(env, 'HOST') ?? '0.0.0.0',
    dataDir: path.resolve(text(env, 'DATA_DIR') ?? './data'),
    publicUrl,
    secureCookies: publicUrl.startsWith('https:'),
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
    ollama: { url: url(env, 'OLLAMA_URL', 'http://127.0.0.1:11434')!, model: text(env, 'OLLAMA_MODEL') ?? 'llama3.2:3b' },
    whisper: { url: url(env, 'WHISPER_URL'), model: text(env, 'WHISPER_MODEL') },
    tts: {
      engine: oneOf(env, 'TTS_ENGINE', ['piper', 'espeak-ng'] as const),
      piperBin: text(env, 'PIPER_BIN') ?? 'piper',
      piperVoicesDir: text(env, 'PIPER_VOICES_DIR'),
    },
    twilio: {
      accountSid: twilioSid,
      authToken: twilioToken,
      apiBase: url(env, 'TWILIO_API_BASE'),
      messagingFrom: text(env, 'TWILIO_MESSAGING_FROM'),
    },
    numbers: {
      provider,
      staticNumbers,
      monthlyCostPence: pounds(env, 'NUMBER_MONTHLY_COST', '1.00'),
    },
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info')!,
  };
}
