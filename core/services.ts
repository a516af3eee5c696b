import type { CoreDeps } from './deps.js';
import { createNumberService } from './numbers/factory.js';
import type { NumberService } from './numbers/service.js';
import type { TransferOutcome } from '../contract/call-handling.js';
import { WebhookService, type WebhookOptions } from './webhooks/service.js';
import { CallerTextService, type CallerTextOptions } from './caller-texts/service.js';

export { newHooks, type CoreDeps, type GreetingSettings, type HealthReport, type ServiceHooks } from './deps.js';

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
}

/** Rings an owner's transfer number as a test: returned by startPbx when it can call out (OUTBOUND_ENDPOINT). */
export type TestTransfer = (userId: number) => Promise<TestTransferResult>;

/** What became of a test call to the owner's phone. */
export type TestTransferResult =
  | { kind: 'rang'; outcome: 'answered' | TransferOutcome; number: string; ringSeconds: number }
  | { kind: 'no-transfer-number' }
  | { kind: 'no-phone-number' }
  | { kind: 'pbx-down' };

/**
 * "Check my forwarding": the PBX calls the owner's business line `line` from their appliance
 * number and returns once the call is out; the check's row says how it ends. Returned by
 * startPbx when it can call out (OUTBOUND_ENDPOINT).
 */
export type ForwardingCheckStart = (userId: number, line: string) => Promise<ForwardingCheckStartResult>;

export type ForwardingCheckStartResult =
  | { kind: 'started'; id: number }
  | { kind: 'no-phone-number' }
  | { kind: 'pbx-down' }
  /** The trunk refused the call at once. */
  | { kind: 'not-placed' };

/** How the services are built; a test passes its seams here (e.g. the webhooks' resolver). */
export interface ServiceOptions {
  webhooks?: WebhookOptions;
  callerTexts?: CallerTextOptions;
}

/** The composition root's second step: the services built from the core's dependencies, all at once. */
export function withAppServices(deps: CoreDeps, opts: ServiceOptions = {}): Services {
  return { ...deps, numbers: createNumberService(deps), webhooks: new WebhookService(deps, opts.webhooks), callerTexts: new CallerTextService(deps, opts.callerTexts) };
}
