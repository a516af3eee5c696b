// The line's state (issue 44): whether the box can answer calls now, in plain words, from what
// the core knows in memory (the ARI link, the engine pools) and the owner's last forwarding check.
// core/line-state/routes.ts serves it; the console's banner and the admin's status read it.
import { Type } from 'typebox';

/** up: working; down: configured but not working; off: not set up on this box (no ARI_URL, no SIP trunk). */
export const LINE_PART_STATES = ['up', 'down', 'off'] as const;
const PartState = Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Literal('off')]);

/** GET /api/line-state: the owner's banner. `problems` is empty while calls are answered. */
export const ApiOwnerLineStateSchema = Type.Object({
  problems: Type.Array(
    Type.Object({
      /**
       * pbx-down: the phone system is not connected; no-trunk: the phone system has no SIP trunk;
       * trunk-down: the trunk's registration is not accepted; not-forwarding: the owner's last
       * forwarding check did not reach the box.
       */
      id: Type.Union([Type.Literal('pbx-down'), Type.Literal('no-trunk'), Type.Literal('trunk-down'), Type.Literal('not-forwarding')]),
      /** What the owner reads: what is wrong, since when, and what to do. */
      message: Type.String(),
      /** When it started (ISO 8601): the link went down, or the check ran. */
      since: Type.String(),
    }),
  ),
  /** Whether "Call my line" can ring: the box has a phone system and it is connected (the field keeps its first name: API clients read it). */
  testCallAvailable: Type.Boolean(),
});

const AdminPart = Type.Object({
  /** Phone system, Phone line (SIP trunk), or the engine's name (ollama, whisper, tts). */
  name: Type.String(),
  state: PartState,
  /** When it last changed to this state as the core saw it (ISO 8601); the core's start when it has not changed. */
  since: Type.String(),
  /** Plain words: "Connected to Asterisk", "Not connected: reconnecting", "1 of 2 endpoints up". */
  detail: Type.String(),
});

/** GET /api/admin/line-state: the admin's status. */
export const ApiAdminLineStateSchema = Type.Object({
  phoneSystem: AdminPart,
  /** The SIP trunk that brings calls in: registered (or set up without registration), refused, or none. */
  trunk: AdminPart,
  engines: Type.Array(AdminPart),
});
