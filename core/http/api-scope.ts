import { agentCapacityRoutes } from '../admin/agent-capacity.js';
import { languageModelRoutes } from '../admin/language-model.js';
import { adminUserRoutes } from '../admin/user-routes.js';
import { agentPreviewRoutes } from '../agent-preview/routes.js';
import { analyticsRoutes } from '../analytics/routes.js';
import { callHandlingRoutes } from '../call-handling/routes.js';
import { forwardingCheckRoutes } from '../forwarding-check/routes.js';
import { lineStateRoutes } from '../line-state/routes.js';
import { authRoutes } from '../auth/routes.js';
import { callLogRoutes } from '../calls/routes.js';
import { callBackRoutes } from '../call-backs-store/routes.js';
import { numberRoutes } from '../numbers/routes.js';
import { privacyRoutes } from '../privacy/routes.js';
import { qualityRoutes } from '../quality/routes.js';
import { questionRoutes } from '../questions/routes.js';
import { settingsRoutes } from '../settings/routes.js';
import { greetingRecordingRoutes } from '../settings/greeting-recordings.js';
import { destinationRoutes } from '../destinations/routes.js';
import { twilioWebhookRoutes } from '../twilio/webhook-routes.js';
import { callerTextRoutes } from '../caller-texts/routes.js';
import { screeningRoutes } from '../screening/routes.js';
import { bookingRoutes } from '../booking/routes.js';
import { depositRoutes } from '../payments/deposits/routes.js';
import { teamRoutes } from '../team/routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
import { pushRoutesPlugin } from '../push/routes.js';
import type { CallMyLineRegistry } from '../call-my-line/registry.js';
import { callMyLineRoutes } from '../call-my-line/routes.js';
import { liveRoutes } from '../live/routes.js';
import type { LiveLineRegistry } from '../live-control/line-registry.js';
import { liveControlRoutes } from '../live-control/routes.js';
import type { LiveCallControl } from '../ports/live-listen.js';
import { inviteRoutes } from '../team/invite-routes.js';
import { websiteRoutes } from '../website/routes.js';
import { billingRoutes } from '../payments/billing/routes.js';
import type { StripeEventHandlers } from '../payments/parts.js';
import { stripeWebhookRoutes } from '../payments/webhooks/routes.js';
import { registerAccessGuard } from './access-guard.js';
import type { App } from './fastify-types.js';
import { registerSameOriginGuard } from './same-origin.js';
import { requireResponseSchemas } from './response-schemas.js';
import { registerNoStore } from './security-headers.js';
import { registerSessionHook } from './session-hook.js';

/**
 * The /api scope (fastify/demo's autohooks pattern): its hooks run for every route
 * registered inside it, whatever spelling of the URL reached the route
 * (`/%61pi/auth/logout` is routed to /api/auth/logout and meets them too), instead of
 * each hook guessing from the raw URL.
 */
export async function apiScope(api: App, opts: { callMyLine?: CallMyLineRegistry | null; live?: { lines: LiveLineRegistry; control: LiveCallControl } | null; stripeHandlers?: StripeEventHandlers | undefined }): Promise<void> {
  registerSameOriginGuard(api);
  registerSessionHook(api);
  registerAccessGuard(api);
  registerNoStore(api);
  requireResponseSchemas(api);

  await api.register(authRoutes);
  await api.register(settingsRoutes);
  await api.register(greetingRecordingRoutes);
  await api.register(destinationRoutes);
  await api.register(callHandlingRoutes);
  await api.register(forwardingCheckRoutes);
  await api.register(lineStateRoutes);
  await api.register(adminUserRoutes);
  await api.register(agentCapacityRoutes);
  await api.register(languageModelRoutes);
  await api.register(qualityRoutes);
  await api.register(analyticsRoutes);
  await api.register(numberRoutes);
  await api.register(privacyRoutes);
  await api.register(questionRoutes);
  await api.register(agentPreviewRoutes);
  await api.register(callLogRoutes);
  // Issue 56: the agent's call-backs, as the owner's tracker shows them.
  await api.register(callBackRoutes);
  await api.register(webhookRoutes);
  await api.register(callerTextRoutes);
  await api.register(screeningRoutes);
  await api.register(bookingRoutes);
  await api.register(teamRoutes);
  await api.register(callMyLineRoutes(opts.callMyLine ?? null));
  await api.register(liveRoutes);
  await api.register(liveControlRoutes({ lines: opts.live?.lines ?? null, control: opts.live?.control ?? null }));
  await api.register(inviteRoutes);
  await api.register(websiteRoutes);
  await api.register(billingRoutes(api.services.billing));
  await api.register(depositRoutes);
  await api.register(pushRoutesPlugin);
  // Server-to-server: marked `webhook`, so the guards and the session hook above step aside for it.
  await api.register(twilioWebhookRoutes);
  // Stripe's events go to deposits and billing, unless a test hands in its own recording handlers.
  const { deposits, billing } = api.services;
  await api.register(stripeWebhookRoutes, { handlers: opts.stripeHandlers ?? { deposits: deposits.handlers.deposits, billing: billing.billing } });
}
