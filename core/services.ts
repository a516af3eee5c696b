import type { CoreDeps } from './deps.js';
import { createNumberService } from './numbers/factory.js';
import type { NumberService } from './numbers/service.js';
import { WebhookService, type WebhookOptions } from './webhooks/service.js';
import { CallerTextService, type CallerTextOptions } from './caller-texts/service.js';
import { BookingService } from './booking/service.js';
import type { DepositDesk } from './payments/parts.js';
import type { BookingKeys } from './booking/calendars/keys.js';
import type { GuardOptions } from './webhooks/address-guard.js';
import type { BackoffPolicy } from './time/backoff.js';
import { WebsiteService, type WebsiteOptions } from './website/service.js';
import { DepositService } from './payments/deposits/deposit-service.js';
import { BillingService } from './payments/billing/billing-service.js';
import { AgentGuard } from './agent-guard/agent-guard.js';
import { brand } from './mail/brand.js';
import { PushService, type PushOptions } from './push/service.js';
import type { OwnerNews } from './ports/owner-news.js';
import { LiveCallRegistry } from './live/registry.js';
import { memberName } from './live/member-name.js';
import { CallBackSweep } from './call-backs-dial/sweep.js';

export { newHooks, type CoreDeps } from './deps.js';

/**
 * What the HTTP routes and the background work share, handed to buildApp, which decorates the
 * app with each (core/plugins/app-services.ts).
 */
export interface Services extends CoreDeps {
  /** UK numbers for owners, and the admin's view of them (core/numbers). */
  numbers: NumberService;
  /** The owner's webhooks (core/webhooks): routes and the post-call pipeline share this one. */
  webhooks: WebhookService;
  /** Texts between businesses and their callers (core/caller-texts): the one road, the text-back job. */
  callerTexts: CallerTextService;
  /** Booking (core/booking): `booking.desk(ownerId)` is the agent's BookingDeskFactory (preview writes nothing). */
  booking: BookingService;
  /** Learning the business from its website (core/website): the crawl job, the weekly re-crawl. */
  website: WebsiteService;
  /** Owners' deposits (core/payments/deposits): the DepositDesk booking calls, the connection, the hold's sweep. */
  deposits: DepositService;
  /** The operator's subscriptions (core/payments/billing; BILLING=stripe, otherwise inert): routes, Stripe's events, housekeeping's sweep. */
  billing: BillingService;
  /** This node's slow-box guard as the admin sees it, and its notices to admins and owners (core/agent-guard; the PBX reports to it). */
  agentGuard: AgentGuard;
  /** Web Push alerts to the owner's and staff's devices (core/push, issue 54): keys, devices' alerts, the delayed text. */
  push: PushService;
  /** Calls in progress on this node (core/live, issue 54): the Live page's list and stream, End call. */
  live: LiveCallRegistry;
  /** The agent's call-backs (core/call-backs-dial, issue 56): the sweep the root starts with the PBX's dialler. */
  callBacks: CallBackSweep;
}

/** How the services are built; a test passes its seams here (e.g. the webhooks' resolver). */
export interface ServiceOptions {
  webhooks?: WebhookOptions;
  callerTexts?: CallerTextOptions;
  /** The crawler and the drafter (core/website/parts.ts), and the guard's test seam. */
  website?: WebsiteOptions;
  /** Push alerts' test seams (the push-service double's loopback address and certificate) and timing. */
  push?: PushOptions;
  booking?: { keys?: BookingKeys; pollMs?: number; calendarGuard?: GuardOptions; backoff?: BackoffPolicy; calendarBoundMs?: number; deposits?: DepositDesk };
}

/** The composition root's second step: the services built from the core's dependencies, all at once. */
export function withAppServices(deps: CoreDeps, opts: ServiceOptions = {}): Services {
  // Bookings' and caller texts' news reach the owner's devices too; a push never holds their text up.
  const push = new PushService(deps, opts.push);
  const ownerNews = (news: OwnerNews) => void push.alertOwnerNews(news).catch((err: unknown) => deps.log.warn({ userId: news.userId, err }, 'push alert not queued'));
  // Booking texts callers on the caller-texts road, and a caller's reply "C" cancels their next
  // booking: caller texts offer each text to booking first, through a port called only once both exist.
  const callerTexts: CallerTextService = new CallerTextService(deps, { ownerNews, ...opts.callerTexts, bookingReply: (userId, from, body) => booking.cancelByReply(userId, from, body) });
  // Booking holds a slot through the deposit desk, which seals the owner's key with booking's
  // keys: the same kind of port, called only once both exist.
  const desk: DepositDesk = { connected: (u) => deposits.connected(u), startHold: (id, signal) => deposits.startHold(id, signal), cancelled: (id, by) => deposits.cancelled(id, by) };
  const booking: BookingService = new BookingService(deps, { deposits: desk, ownerNews, ...opts.booking, road: callerTexts.road, gateway: callerTexts.gateway });
  const deposits: DepositService = new DepositService({ db: deps.database.db, now: deps.now, log: deps.log, sealKey: booking.keys.seal, publicUrl: deps.config.publicUrl, apiBase: deps.config.stripe.apiBase, road: callerTexts.road, gateway: callerTexts.gateway, ownerNews });
  const agentGuard = new AgentGuard({ db: deps.database.db, mailer: deps.mailer, brand: brand(deps.config), log: deps.log, now: deps.now, node: deps.config.node, limitMs: deps.config.agentSlow.p50LimitMs });
  const live = new LiveCallRegistry({ memberName: (staffId) => memberName(deps.database.db, staffId), log: deps.log });
  const callBacks = new CallBackSweep({ db: deps.database.db, now: deps.now, log: deps.log, allow: deps.config.outbound.allow, noSlotWaitMs: deps.config.callBacks.noSlotWaitMs, callFinished: deps.hooks.callFinished, callSettled: deps.hooks.callSettled, road: callerTexts.road, gateway: callerTexts.gateway, ownerNews });
  return { ...deps, callBacks, numbers: createNumberService(deps), webhooks: new WebhookService(deps, opts.webhooks), callerTexts, booking, website: new WebsiteService(deps, opts.website), deposits, billing: new BillingService(deps), agentGuard, push, live };
}
