import { callbackReminders } from '../core/notify/reminder-schedule.js';
import { createPostCall, type PostCall, type PostCallEngines, type PostCallOptions } from '../core/post-call/service.js';
import type { Services } from '../core/services.js';

/** What the root starts for finished calls, as one handle: the post-call jobs, the webhooks' worker, the call-back reminders. */
export interface CallPipeline extends PostCall {
  /** One pass of the call-back reminders; resolves to how many were sent. */
  remindCallbacks(): Promise<number>;
}

/** The call pipeline on `services` (subscribes to hooks.callFinished at once; its work runs from `start()`). */
export function createCallPipeline(services: Services, engines: PostCallEngines = {}, options: PostCallOptions = {}): CallPipeline {
  const { config, webhooks } = services;
  // Post-call jobs (transcribe → summarise → notify): resumes jobs a previous run left.
  const postCall = createPostCall(services, engines, { leaseMs: config.jobs.leaseMs, heartbeatMs: config.jobs.leaseMs / 5, ...options });
  const reminders = callbackReminders(services, postCall.notifier);
  return {
    ...postCall,
    remindCallbacks: reminders.remind,
    /** The jobs table's housekeeping and orphan recovery, then the webhook delivery log's. */
    async sweep() {
      await postCall.sweep();
      await webhooks.sweep();
    },
    start() {
      postCall.start();
      // Each settled call's event to the owner's webhook, on its own worker.
      webhooks.start();
      reminders.start();
    },
    async stop() {
      await reminders.stop();
      await postCall.stop();
      await webhooks.stop();
    },
  };
}
