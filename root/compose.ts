import fs from 'node:fs';
import path from 'node:path';
import type pino from 'pino';
import { buildApp, type BuildOptions } from '../core/app.js';
import type { Config } from '../core/config/config.js';
import type { DatabaseHandle } from '../core/db/client.js';
import { openAppDatabase } from '../core/db/open.js';
import { createLogger } from '../core/logging/logger.js';
import { startBackupSchedule } from '../core/backup/schedule.js';
import { startWeeklyDigest } from '../core/digest/schedule.js';
import { startLocalInbox } from '../core/followup/local-inbox.js';
import { startHousekeeping } from '../core/housekeeping/schedule.js';
import { startRetentionSchedule } from '../core/privacy/schedule.js';
import { createMailer, type Mailer } from '../core/mail/mailer.js';
import type { PostCallEngines, PostCallOptions } from '../core/post-call/service.js';
import type { CallPipeline } from './call-pipeline.js';
import { newHooks, withAppServices, type ServiceOptions, type Services } from '../core/services.js';
import { createAgentEngines } from '../core/engines/agent-engines.js';
import { CallMyLineRegistry } from '../core/call-my-line/registry.js';
import { withLiveCalls } from '../core/live/live-call-path.js';
import { recordLiveJoin } from '../core/live-control/history.js';
import { LiveLineRegistry } from '../core/live-control/line-registry.js';
import { callBackDeskFactory } from '../core/call-backs-wish/desk.js';
import type { App } from '../core/http/fastify-types.js';
import type { Pbx, PbxOptions } from '../pbx/index.js';
import type { AgentFlowInstall, InstallOptions } from '../pbx/flows/agent/index.js';
import type { CallBackDialler } from '../core/ports/call-back-dialler.js';

/**
 * The composition root: the one place that wires config, storage, engines, PBX and HTTP, and
 * starts and stops the background work. root/main.ts, the test server (test/helpers/server.ts,
 * under every test harness) and the benches all build the appliance here, overriding only
 * what they must, so a new service is wired once.
 */

/** The background work production runs; a test server starts none and names what it tests. */
type BackgroundWork = 'housekeeping' | 'prompts' | 'pipeline' | 'callerTexts' | 'booking' | 'backups' | 'retention' | 'digest' | 'inbox' | 'website' | 'deposits' | 'model' | 'selfTest' | 'push' | 'callBacks';

export interface ApplianceOverrides {
  /** The core's logger (default: LOG_LEVEL's, as the service 'core'). */
  log?: pino.Logger;
  mailer?: Mailer;
  /** The clock every service reads (default the machine's). */
  now?: () => Date;
  services?: ServiceOptions;
  /**
   * Runs once the services are built, before any work starts on them (the first admin, a
   * test's listener or wrapped engine); may return build options (a stand-in PBX's routes).
   */
  setup?: (services: Services) => void | Partial<BuildOptions> | Promise<void | Partial<BuildOptions>>;
  /** Which background work starts (default: all, as in production). */
  background?: Partial<Record<BackgroundWork, boolean>>;
  /** The post-call pipeline's engines and timing (its jobs' lease is JOB_LEASE_SECONDS unless set). */
  postCall?: { engines?: PostCallEngines; options?: PostCallOptions };
  /** The PBX when ARI_URL is set; `false`: no PBX part at all, not even its health line (HTTP-only tests). */
  pbx?: PbxOptions | ((services: Services) => PbxOptions) | false;
  /** The agent flow (default on when the PBX runs), its options possibly from the built services; `false`: agent-mode callers get voicemail. */
  agent?: InstallOptions | ((services: Services) => InstallOptions) | false;
  /** The HTTP side's options; `false`: none (a process that only runs background work, e.g. a job worker). */
  http?: BuildOptions | false;
  /** Places the agent's call-backs instead of the PBX's (a test's recording double). */
  callBackDialler?: CallBackDialler;
}

export interface Appliance {
  config: Config;
  database: DatabaseHandle;
  services: Services;
  /** The HTTP app, unless `http: false`. */
  app?: App;
  /** Where the app listens (config's HOST and PORT; PORT=0 takes a free port). */
  url?: string;
  pipeline?: CallPipeline;
  pbx?: Pbx;
  agent?: AgentFlowInstall;
  /** The self-test's schedule, when it runs (SELF_TEST on and its background work on). */
  selfTest?: import('../core/self-test/schedule.js').SelfTestSchedule;
  /** Stops taking calls (letting those in progress finish for up to `drainMs`), then everything else, in order. */
  stop(drainMs?: number): Promise<void>;
}

/** Opens the database, builds the services and the HTTP app, starts the background work and the PBX, and listens. */
export async function composeAppliance(config: Config, o: ApplianceOverrides = {}): Promise<Appliance> {
  const log = o.log ?? createLogger({ level: config.logLevel, base: { service: 'core' } });
  fs.mkdirSync(config.dataDir, { recursive: true });
  const database = await openAppDatabase(config.database, log);
  const mailer = o.mailer ?? createMailer({ smtpUrl: config.mail.smtpUrl, from: config.mail.from, outboxDir: path.join(config.dataDir, 'outbox', 'mail'), log });
  const services: Services = withAppServices(
    { config, database, mailer, now: o.now ?? (() => new Date()), log, health: new Map(), hooks: newHooks(), agentEngines: createAgentEngines(config, undefined, log.child({ component: 'model' })) },
    o.services,
  );
  const built = (await o.setup?.(services)) ?? {};
  const on = (work: BackgroundWork) => o.background?.[work] ?? true;

  const housekeeping = on('housekeeping') ? await startHousekeeping(services) : undefined;
  // The prompts folder's cap counts files others wrote too: measured now and every PROMPTS_MEASURE_SECONDS.
  if (on('prompts')) services.agentEngines.promptFolder.start();
  // OLLAMA_MODEL checked on each endpoint and pulled where missing (issue 60); agent mode waits for it.
  if (on('model')) services.agentEngines.model.start();
  // Subscribes to hooks.callFinished before the PBX can fire it.
  // The pipeline and the PBX's modules are imported only when they start: an HTTP-only process
  // (most test servers, each in a fresh module graph) would otherwise evaluate ~0.5 s of them.
  const pipeline = on('pipeline') ? (await import('./call-pipeline.js')).createCallPipeline(services, o.postCall?.engines, o.postCall?.options) : undefined;
  pipeline?.start();
  // Missed-call text-back (subscribes to hooks.callFinished) on its own job kind and worker.
  if (on('callerTexts')) services.callerTexts.start();
  if (on('booking')) services.booking.start();
  // Crawls of owners' sites, one at a time box-wide, and the weekly re-crawl's tick.
  if (on('website')) services.website.start();
  // Deposit holds whose pay link ran out: expired at Stripe, then released (a minute's sweep).
  if (on('deposits')) services.deposits.start();
  // Push alerts' worker (issue 54); the VAPID keys are made now on a first start.
  if (on('push')) services.push.start();
  const backups = on('backups') ? startBackupSchedule(services) : undefined;
  const retention = on('retention') ? startRetentionSchedule(services) : undefined;
  // Monday 08:00 London: calls still to call back; catches up this week's if the box was down then.
  const digest = on('digest') ? startWeeklyDigest(services) : undefined;
  // Without Twilio, owner replies are files dropped into $DATA_DIR/outbox/sms-in/ (answers go to outbox/sms/).
  const inbox = on('inbox') && !(config.twilio.accountSid && config.twilio.authToken) ? startLocalInbox(services) : undefined;

  let pbx: Pbx | undefined;
  let agent: AgentFlowInstall | undefined;
  let callMyLine: CallMyLineRegistry | undefined;
  let live: { lines: LiveLineRegistry; control: NonNullable<Pbx['liveControl']> } | undefined;
  if (o.pbx !== false && !config.ari.url) {
    log.info('ARI_URL is not set: running without a PBX connection (console and API only)');
    services.health.set('pbx', () => ({ ok: true, detail: 'disabled: ARI_URL is not set' }));
  } else if (o.pbx !== false && config.ari.url) {
    const [{ startPbx }, { createCallMyLineEndpoints }, { installAgentFlow }, { createCallPath }, { createLiveLineEndpoints }] = await Promise.all([
      import('../pbx/index.js'),
      import('../pbx/call-my-line/lines.js'),
      import('../pbx/flows/agent/index.js'),
      import('../core/calls/call-path.js'),
      import('../pbx/live-control/lines.js'),
    ]);
    agent = o.agent === false ? undefined : installAgentFlow(services, withCallBackDesk(services, typeof o.agent === 'function' ? o.agent(services) : o.agent));
    // Without the media app registered, agent calls fall back to voicemail: worth seeing in /healthz.
    if (agent) services.health.set('agent-media', agent.health);
    const pbxLog = log.child({ component: 'pbx' });
    // The core's objects the PBX works on, each behind its port (core/ports/).
    // Wrapped so the Live page's registry (core/live) sees each call start, get its person and end;
    // an agent call flagged urgent while it is in progress gives a live push alert (issue 54).
    const onUrgent = (callId: number, reason: string) => void services.push.alertLiveUrgent(callId, reason).catch((err: unknown) => pbxLog.warn({ callId, err }, 'live push alert not queued'));
    const callPath = withLiveCalls(createCallPath(database.db, pbxLog, config.outbound, config.node, onUrgent), services.live);
    // Once the PBX is stopped, the link is down: a test call then answers 'pbx-down'.
    callMyLine = new CallMyLineRegistry(createCallMyLineEndpoints({ url: config.ari.url, username: config.ari.username, password: config.ari.password }), pbxLog);
    // Listen in and take over (issue 54): one-call browser lines, their joins kept in the call's history.
    const liveLines = new LiveLineRegistry(createLiveLineEndpoints({ url: config.ari.url, username: config.ari.username, password: config.ari.password }), (join) => recordLiveJoin(database.db, join, services.now()), pbxLog);
    services.hooks.callFinished.push((callId) => liveLines.callEnded(callId));
    pbx = startPbx(services, { callPath, callMyLine, liveLines }, { agentFlow: agent?.flow, liveAgents: agent?.takeOvers, agentCallBacks: agent?.callBacks, ...(typeof o.pbx === 'function' ? o.pbx(services) : o.pbx) });
    if (pbx.liveControl) live = { lines: liveLines, control: pbx.liveControl };
    services.health.set('pbx', pbx.health);
    // End call on the Live page hangs up through this PBX.
    services.live.attachControl(pbx.live);
    // Synthesise a changed greeting when it is saved, so the next caller does not wait for it.
    services.hooks.settingsChanged.push(pbx.settingsChanged);
  }
  // The agent's call-backs (issue 56): swept only where a PBX can place them with agent mode.
  if (on('callBacks')) services.callBacks.start(o.callBackDialler ?? pbx?.callBackDialler, config.callBacks.sweepMs);
  // The box's self-test of its own engines (SELF_TEST): after the PBX, whose calls it waits for.
  const selfTest = on('selfTest') && config.selfTest.enabled ? (await import('../core/self-test/schedule.js')).startSelfTest({ config, pools: services.agentEngines.pools, liveCalls: () => pbx?.app.activeCalls ?? 0, modelReady: () => services.agentEngines.model.ready(), log: log.child({ component: 'self-test' }) }) : undefined;
  // After the PBX: the console's "Test transfer" rings through it.
  const app = o.http === false ? undefined : await buildApp(services, { testTransfer: pbx?.testTransfer, forwardingCheck: pbx?.forwardingCheck, codeCall: pbx?.codeCall, callMyLine, live, ...o.http, ...built });
  await app?.listen({ port: config.port, host: config.host });
  const address = app?.server.address();
  const url = typeof address === 'object' && address ? `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${address.port}` : undefined;

  return {
    config,
    database,
    services,
    app,
    url,
    pipeline,
    pbx,
    agent,
    selfTest,
    async stop(drainMs) {
      // First: stop taking calls and let those in progress finish (rows written, jobs queued).
      await pbx?.stop(drainMs);
      agent?.stop();
      await services.callBacks.stop();
      await selfTest?.stop();
      services.health.delete('agent-media');
      services.agentEngines.pools.close();
      services.agentEngines.promptFolder.stop();
      services.agentEngines.model.stop();
      housekeeping?.stop();
      await pipeline?.stop();
      if (on('callerTexts')) await services.callerTexts.stop();
      if (on('booking')) await services.booking.stop();
      if (on('website')) await services.website.stop();
      if (on('deposits')) services.deposits.stop();
      if (on('push')) await services.push.stop();
      backups?.stop();
      retention?.stop();
      await digest?.stop();
      await inbox?.stop();
      await app?.close();
      // The slow-box guard's notices still on their way go out before the relay is closed.
      await services.agentGuard.settled(5000);
      if (!o.mailer) mailer.close();
      await database.close();
    },
  };
}

/** The agent agrees call-backs in the call through the core's desk (issue 56); a test's own desk wins. */
function withCallBackDesk(services: Services, opts: InstallOptions | undefined): InstallOptions {
  const callBackDesk = callBackDeskFactory({ db: services.database.db, now: services.now, log: services.log, allow: services.config.outbound.allow });
  return { ...opts, overrides: { callBackDesk, ...opts?.overrides } };
}
