import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { User } from '../db/schema.js';
import type { StaffActor } from '../team/staff-scope.js';
import type { NumberService } from '../numbers/service.js';
import type { Services } from '../services.js';
import type { ForwardingCheckStart } from '../ports/forwarding-check.js';
import type { TestTransfer } from '../ports/test-transfer.js';
import type { CodeCall } from '../ports/code-call.js';
import type { WebhookService } from '../webhooks/service.js';
import type { RateLimits } from './rate-limit-table.js';

/** The Fastify instance every route module receives: schema-first via TypeBox. */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression<RawServerDefault>,
  RawReplyDefaultExpression<RawServerDefault>,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A server-to-server webhook (Twilio's): authenticated by its own signature, so the
     * console's same-origin/JSON guard and the session cookie do not apply to it.
     */
    webhook?: boolean;
    /** The body may be a WAV (audio/wav) as well as JSON: an owner's recording (same-origin.ts). */
    wavBody?: boolean;
    /** The answer is not JSON (audio, TwiML), so it has no response schema (response-schemas.ts). */
    rawReply?: boolean;
    /**
     * Who may call the route (access-guard.ts): a signed-in user unless it says `public`
     * (signed out too) or `admin` (administrators only).
     */
    access?: 'public' | 'admin';
  }
  interface FastifyInstance {
    services: Services;
    /** The limits in force (RATE_LIMITS unless a test server says otherwise). */
    rateLimits: RateLimits;
    /** The PBX's test call to an owner's phone (BuildOptions.testTransfer); null when it cannot call out. */
    testTransfer: TestTransfer | null;
    /** The PBX's forwarding check (BuildOptions.forwardingCheck); null when it cannot call out. */
    forwardingCheck: ForwardingCheckStart | null;
    /** The PBX's call reading a code to a team member's landline (BuildOptions.codeCall); null when it cannot call out. */
    codeCall: CodeCall | null;
    /** core/plugins/app-services.ts: the numbers service (plugin `numbers`). */
    numbers: NumberService;
    /** core/plugins/app-services.ts: the owners' webhooks (plugin `webhooks`). */
    webhooks: WebhookService;
  }
  interface FastifyRequest {
    /** The signed-in user, set by the session hook; null when signed out. For a staff sign-in, the business owner it acts for. */
    user: User | null;
    /** A staff member's own sign-in (issue 58): who they are and what they may see; null for the owner, an admin, or signed out. */
    staff: StaffActor | null;
    sessionId: string | null;
  }
}
