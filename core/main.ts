import fs from 'node:fs';
import path from 'node:path';
import { ensureFirstAdmin } from './accounts/bootstrap-admin.js';
import { buildApp } from './app.js';
import { createLogger } from './logging/logger.js';
import { printableError } from './logging/safe-errors.js';
import { ConfigError, loadConfig, type Config } from './config/config.js';
import { openAppDatabase } from './db/open.js';
import { startBackupSchedule } from './backup/schedule.js';
import { startWeeklyDigest } from './digest/schedule.js';
import { startLocalInbox } from './followup/local-inbox.js';
import { startHousekeeping } from './housekeeping/schedule.js';
import { startRetentionSchedule } from './privacy/schedule.js';
import { createMailer } from './mail/mailer.js';
import { callbackReminders } from './notify/reminder-schedule.js';
import { createPostCall } from './post-call/service.js';
import { newHooks, withAppServices, type Services } from './services.js';
import { startPbx, type Pbx } from '../pbx/index.js';
import { installAgentFlow, type AgentFlowInstall } from '../pbx/flows/agent/index.js';
import { createAgentEngines } from './engines/agent-engines.js';
import { createCallPath } from './calls/call-path.js';

/** Calls in progress get this long to finish on SIGTERM (compose's stop_grace_period must exceed it). */
const PBX_DRAIN_MS = 25_000;

/** The composition root: the one place that wires config, storage, engines, PBX and HTTP. */
async function main(): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }

  const log = createLogger({ level: config.logLevel, base: { service: 'core' } });
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openAppDatabase(config.database, log);
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    outboxDir: path.join(config.dataDir, 'outbox', 'mail'),
    log,
  });
  const services: Services = withAppServices({
    config,
    database,
    mailer,
    now: () => new Date(),
    log,
    health: new Map(),
    hooks: newHooks(),
    agentEngines: createAgentEngines(config),
  });

  const admin = await ensureFirstAdmin(database.db, config.admin, new Date());
  if (admin?.oneTimePassword) {
    // Printed once on the console only (not the structured log), for the operator's first login.
    console.log(`\nFirst admin created: ${admin.email}\nOne-time password: ${admin.oneTimePassword}\nChange it under Account Settings after logging in.\n`);
  } else if (admin) {
    log.info({}, 'first admin created from ADMIN_EMAIL');
  }

  const housekeeping = await startHousekeeping(services);
  // The prompts folder's cap counts files others wrote too: measured now and every PROMPTS_MEASURE_SECONDS.
  services.agentEngines.promptFolder.start();
  // Post-call jobs (transcribe → summarise → notify): subscribes to hooks.callFinished, resumes jobs a previous run left.
  const postCall = createPostCall(services, {}, { leaseMs: config.jobs.leaseMs, heartbeatMs: config.jobs.leaseMs / 5 });
  postCall.start();
  // Each settled call's event to the owner's webhook, on its own worker.
  const { webhooks } = services;
  webhooks.start();
  // Missed-call text-back (subscribes to hooks.callFinished) on its own job kind and worker.
  services.callerTexts.start();
  services.booking.start();
  const reminders = callbackReminders(services, postCall.notifier);
  reminders.start();
  const backups = startBackupSchedule(services);
  const retention = startRetentionSchedule(services);
  // Monday 08:00 London: calls still to call back; catches up this week's if the box was down then.
  const digest = startWeeklyDigest(services);
  // Without Twilio, owner replies are files dropped into $DATA_DIR/outbox/sms-in/ (answers go to outbox/sms/).
  const inbox = config.twilio.accountSid && config.twilio.authToken ? null : startLocalInbox(services);
  let pbx: Pbx | undefined;
  let agent: AgentFlowInstall | undefined;
  if (!config.ari.url) {
    log.info('ARI_URL is not set: running without a PBX connection (console and API only)');
    services.health.set('pbx', () => ({ ok: true, detail: 'disabled: ARI_URL is not set' }));
  } else {
    // After the post-call jobs, so hooks.callFinished already has its subscriber.
    agent = installAgentFlow(services);
    pbx = startPbx(services, createCallPath(database.db, log.child({ component: 'pbx' }), config.outbound, config.node), { agentFlow: agent.flow });
  }
  // After the PBX: the console's "Test transfer" rings through it.
  const app = await buildApp(services, { logger: log, testTransfer: pbx?.testTransfer, forwardingCheck: pbx?.forwardingCheck, testCalls: pbx?.testCalls });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    // First: stop taking calls and let those in progress finish (rows written, jobs queued).
    await pbx?.stop(PBX_DRAIN_MS);
    agent?.stop();
    services.agentEngines.pools.close();
    services.agentEngines.promptFolder.stop();
    housekeeping.stop();
    await reminders.stop();
    await postCall.stop();
    await webhooks.stop();
    await services.callerTexts.stop();
    await services.booking.stop();
    backups.stop();
    retention.stop();
    await digest.stop();
    await inbox?.stop();
    await app.close();
    mailer.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  // A start-up failure may be a failed query (the first admin's): printed without its values.
  console.error(printableError(err));
  process.exit(1);
});
