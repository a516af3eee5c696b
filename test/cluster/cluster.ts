import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { createSession } from '../../core/auth/sessions.js';
import type { Db } from '../../core/db/client.js';
import { openAppDatabase } from '../../core/db/open.js';
import { tablesOf, type Call, type NewUser } from '../../core/db/schema.js';
import { startOllamaDouble, type OllamaDouble } from '../doubles/ollama/server.js';
import { startTwilioDouble, type TwilioDouble } from '../doubles/twilio/server.js';
import { startWhisperDouble, type WhisperDouble } from '../doubles/whisper/server.js';
import { startCoreProcess, type CoreProcess } from '../helpers/core-process.js';
import { startPostgres, type PostgresServer } from '../helpers/postgres.js';
import { findAsterisk } from '../pbx-real/asterisk-install.js';
import { AsteriskInstance } from '../pbx-real/asterisk-instance.js';
import { insertBusiness } from '../pbx-real/business.js';
import { KamailioInstance } from './kamailio-instance.js';

// The cluster of docs/cluster.md, every engine real: one PostgreSQL 15, Kamailio 5.6 with
// deploy/kamailio's configuration, and per node one Asterisk (its SIP on its own loopback
// address, 127.0.0.2, 127.0.0.3, …) with its own core (root/main.ts as a process, NODE_NAME
// set). The nodes share one recordings folder, as docs/cluster.md asks of an operator; each
// core's prompts folder is its own Asterisk's. Calls come through Kamailio; texts go to one
// Twilio double both cores use.

export interface ClusterNode {
  name: string;
  asterisk: AsteriskInstance;
  dataDir: string;
  core: CoreProcess;
  env: Record<string, string>;
  /** Starts the node's core again on the same folder (after it was killed). */
  restartCore(): Promise<void>;
}

export interface Cluster {
  nodes: ClusterNode[];
  kamailio: KamailioInstance;
  db: Db;
  twilio: TwilioDouble;
  recordingsDir: string;
  /** A business with a DID and a notification number; the owner's session cookie for the API. */
  business(fields?: Partial<NewUser>): Promise<{ userId: number; did: string; cookie: string }>;
  rows(): Promise<Call[]>;
  close(): Promise<void>;
}

const NOTIFY_TO = '+447700900999';

/** The alphanumeric sender ID node `name`'s core texts from: node-a → NodeA. */
export function senderOf(name: string): string {
  return `Node${name.slice(-1).toUpperCase()}`;
}

/** `rtpPorts`: each Asterisk's RTP range (default 200, the shipped one); its maxcalls is a quarter of it. */
export async function startCluster(opts: { nodes?: number; coreEnv?: Record<string, string>; rtpPorts?: number } = {}): Promise<Cluster> {
  const found = findAsterisk();
  if (!found.ok) throw new Error(found.why);
  const cleanups: Array<() => unknown> = [];
  const closeAll = async () => {
    for (const f of cleanups.splice(0).reverse()) await Promise.resolve(f()).catch(() => undefined);
  };
  try {
    const postgres: PostgresServer = await startPostgres();
    cleanups.push(() => postgres.stop());
    const url = await postgres.createDatabase({ migrated: true });
    const handle = await openAppDatabase({ kind: 'postgres', url }, { info: () => {}, warn: () => {} });
    const { calls } = tablesOf(handle.db);
    cleanups.push(() => handle.close());
    const [ollama, whisper, twilio]: [OllamaDouble, WhisperDouble, TwilioDouble] = await Promise.all([startOllamaDouble(), startWhisperDouble(), startTwilioDouble()]);
    cleanups.push(() => ollama.close(), () => whisper.close(), () => twilio.close());
    const recordingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cluster-recordings-'));
    cleanups.push(() => fs.rmSync(recordingsDir, { recursive: true, force: true }));

    const nodes: ClusterNode[] = [];
    for (let i = 0; i < (opts.nodes ?? 2); i++) {
      const name = `node-${String.fromCharCode(97 + i)}`;
      const asterisk = await AsteriskInstance.start({ root: found.root, sipAddress: `127.0.0.${i + 2}`, rtpPorts: opts.rtpPorts, env: { NODE_NAME: name } });
      cleanups.push(() => asterisk.destroy());
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cluster-${name}-`));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      // The operator's shared mount: every core reads and writes the one recordings folder.
      fs.symlinkSync(recordingsDir, path.join(dataDir, 'recordings'));
      asterisk.mountPrompts(path.join(dataDir, 'prompts'));
      const env = {
        DATABASE_URL: url,
        NODE_NAME: name,
        ARI_URL: asterisk.ari.url,
        ARI_USERNAME: asterisk.ari.username,
        ARI_PASSWORD: asterisk.ari.password,
        ARI_APP: asterisk.ari.app,
        OLLAMA_URL: ollama.url,
        WHISPER_URL: whisper.url,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE: twilio.url,
        // A sender ID per node, so a test sees which core sent a text.
        TWILIO_MESSAGING_FROM: senderOf(name),
        LOG_LEVEL: 'info',
        // A dead core's post-call jobs pass to another core after 15 s (90 by default).
        JOB_LEASE_SECONDS: '15',
        ...opts.coreEnv,
      };
      const node: ClusterNode = {
        name,
        asterisk,
        dataDir,
        env,
        core: await startCoreProcess(dataDir, env),
        async restartCore() {
          node.core = await startCoreProcess(dataDir, env);
        },
      };
      cleanups.push(() => node.core.child.kill('SIGKILL'));
      nodes.push(node);
    }
    const kamailio = await KamailioInstance.start(nodes.map((n) => `${n.asterisk.sipAddress}:${n.asterisk.sipPort}`));
    cleanups.push(() => kamailio.stop());

    const db = handle.db;
    return {
      nodes,
      kamailio,
      db,
      twilio,
      recordingsDir,
      async business(fields = {}) {
        const b = await insertBusiness(db, { notificationNumber: NOTIFY_TO, ...fields });
        return { ...b, cookie: `sid=${(await createSession(db, b.userId, new Date())).id}` };
      },
      rows: async () => await db.select().from(calls).orderBy(calls.id),
      close: closeAll,
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/** Rows of the calls to `did`. */
export async function rowsTo(c: Cluster, did: string): Promise<Call[]> {
  const { calls } = tablesOf(c.db);
  return await c.db.select().from(calls).where(eq(calls.toNumber, did));
}
