// The unauthenticated system routes (core/system/routes.ts).
import { Type } from 'typebox';

/** GET /api/meta: what the console must learn from the server rather than hard-code. */
export const ApiMetaSchema = Type.Object({
  productName: Type.String(),
  provider: Type.String(),
  helpContact: Type.Object({ name: Type.String(), email: Type.String() }),
  voices: Type.Object({ female: Type.String(), male: Type.String() }),
  /** The appliance can put calls through to an owner's phone (OUTBOUND_ENDPOINT is set): ring-first, VIP ring-through, Test transfer. */
  transfersAvailable: Type.Boolean(),
});

/** GET /healthz: 200 `ok` or 503 `unavailable`; each component's report only for an administrator. */
export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  /** Each component's report: only for an administrator's session (core/system/routes.ts). */
  components: Type.Optional(Type.Record(Type.String(), Type.Object({ ok: Type.Boolean(), detail: Type.Optional(Type.String()) }))),
});
