import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import cron from 'node-cron';
import { toE164 } from '../../contract/phone.js';
import { canSignIn } from '../http/session-hook.js';
import { gatewayFromConfig } from '../notify/gateway-from-config.js';
import { errorMessage } from '../jobs/retryable.js';
import type { Services } from '../services.js';
import { handleOwnerText, type InboundOutcome, type InboundText } from './inbound-text.js';
import type { InboundChannel } from '../../contract/enums.js';
import { backgroundPass } from '../db/background-pass.js';

/** Where texts "arrive" without Twilio: beside `outbox/sms/`, where the outbox gateway writes the answers. */
export const LOCAL_INBOX = path.join('outbox', 'sms-in');

/** A dropped text's largest size: a WhatsApp message is at most 1,600 characters. */
const MAX_FILE_BYTES = 16 * 1024;

type LocalFileOutcome = InboundOutcome | 'refused';

export interface LocalInbox {
  /** One pass over the folder; resolves to what happened to each file (by name). */
  scan(): Promise<Record<string, LocalFileOutcome>>;
  stop(): Promise<void>;
}

/** What one dropped file must say: JSON `{from, body, to?, channel?, messageSid?}`. */
function parseLocalText(name: string, raw: string): InboundText | string {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return 'not JSON: write {"from": "+447700900222", "body": "DONE 41"}';
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'not a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.from !== 'string' || !toE164(o.from)) return '"from" must be the phone number the text came from, e.g. +447700900222';
  if (typeof o.body !== 'string' || o.body.length > 1600) return '"body" must be the text, at most 1,600 characters';
  if (o.to !== undefined && (typeof o.to !== 'string' || !toE164(o.to))) return '"to" must be the business number texted, e.g. +447700900001';
  if (o.channel !== undefined && o.channel !== 'sms' && o.channel !== 'whatsapp') return '"channel" must be sms or whatsapp';
  if (o.messageSid !== undefined && (typeof o.messageSid !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(o.messageSid))) return '"messageSid" must be 1 to 64 letters, digits, - or _';
  return {
    // The file's name stands in for Twilio's MessageSid: the same file dropped again is a replay.
    messageSid: (o.messageSid as string | undefined) ?? `LC${createHash('sha256').update(name).digest('hex').slice(0, 32)}`,
    channel: (o.channel as InboundChannel | undefined) ?? 'sms',
    from: toE164(o.from),
    to: typeof o.to === 'string' ? toE164(o.to)! : '',
    body: o.body,
  };
}

/**
 * Owner replies without Twilio: each `*.json` file dropped into `$DATA_DIR/outbox/sms-in/` is one
 * text, handled exactly as the webhook handles one from Twilio (handleOwnerText: claimed once by
 * its id, owners only, the same commands, the answer through the outbox gateway into
 * `outbox/sms/`). A handled file moves to `done/`, a malformed one to `failed/` with the reason
 * beside it. Only the local disk can put a file there, so nothing from outside reaches it; it
 * runs only while Twilio is not configured (with Twilio, replies come by the signed webhook).
 * Picked up by fs.watch at once and by a pass every minute (a watch can miss events).
 */
export function startLocalInbox(services: Services, opts: { watch?: boolean } = {}): LocalInbox {
  const { config, database, log, now } = services;
  const dir = path.join(config.dataDir, LOCAL_INBOX);
  fs.mkdirSync(dir, { recursive: true });
  const gateway = gatewayFromConfig(services);
  const deps = { db: database.db, gateway, log, now, settingsChanged: services.hooks.settingsChanged, canAct: canSignIn, callerText: services.callerTexts.callerText() };

  const moveTo = async (sub: 'done' | 'failed', name: string) => {
    await fsp.mkdir(path.join(dir, sub), { recursive: true });
    await fsp.rename(path.join(dir, name), path.join(dir, sub, name));
  };

  const pass = async () => {
    const outcomes: Record<string, LocalFileOutcome> = {};
    // Writers should write another name and rename to *.json, so a file is never read half-written.
    const names = (await fsp.readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() && e.name.endsWith('.json')).map((e) => e.name).sort();
    for (const name of names) {
      const file = path.join(dir, name);
      let raw: string;
      try {
        const stat = await fsp.stat(file);
        raw = stat.size > MAX_FILE_BYTES ? '' : await fsp.readFile(file, 'utf8');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // taken by an overlapping pass
        throw err;
      }
      const text = raw ? parseLocalText(name, raw) : `larger than ${MAX_FILE_BYTES / 1024} KB`;
      if (typeof text === 'string') {
        await moveTo('failed', name);
        await fsp.writeFile(path.join(dir, 'failed', `${name}.error.txt`), `${text}\n`);
        log.warn({ file: name, reason: text }, 'local inbound text refused');
        outcomes[name] = 'refused';
        continue;
      }
      // Handled (and claimed by its id) before the move: a crash in between replays it next pass, which is a no-op.
      outcomes[name] = await handleOwnerText(deps, text);
      await moveTo('done', name);
    }
    return outcomes;
  };

  let running: Promise<Record<string, LocalFileOutcome>> | null = null;
  const cappedPass = backgroundPass(pass);
  const scan = () =>
    (running ??= cappedPass().finally(() => {
      running = null;
    }));
  let again = false;
  const kick = () => {
    if (running) again = true;
    else
      void scan()
        .catch((err: unknown) => log.error({ err: errorMessage(err) }, 'local inbox pass failed'))
        .finally(() => {
          if (again) (again = false), kick();
        });
  };

  const watcher = opts.watch === false ? null : fs.watch(dir, () => kick());
  watcher?.on('error', (err) => log.warn({ err: errorMessage(err) }, 'local inbox watch failed: the minute pass still runs'));
  const task = cron.schedule('* * * * *', kick, { name: 'local-inbox', noOverlap: true });
  if (opts.watch !== false) kick(); // texts dropped while the core was down
  log.info({ dir: LOCAL_INBOX }, 'Twilio is not configured: owner replies are read from files in the local inbox');
  return {
    scan,
    async stop() {
      watcher?.close();
      await task.stop();
      await running?.catch(() => undefined);
    },
  };
}
