import { redactCardNumbers } from '../../dialogue/agent/card-guard.js';
import { isWithheldCaller } from '../../contract/withheld.js';
import { formatPhone } from '../../contract/phone-display.js';
import type { ApiLiveCall, ApiLiveTurn, LiveMode } from '../../contract/schemas/live.js';
import type { Log } from '../../contract/log.js';
import type { LiveCallControl, LiveCallFeed, LiveLine } from '../ports/live-calls.js';

// The calls in progress on this node, per business, in memory (docs/live.md: per node, on
// purpose). Fed by the PBX: start, person and end through CallPath (live-call-path.ts), the
// dialogue and a put-through through the LiveCallFeed port. Every change is an event the Live
// page's streams (routes.ts) pass on to the browsers allowed to see the call.

/** A call in progress as the registry keeps it: the API's shape plus whose it is. */
export interface LiveEntry {
  userId: number;
  call: ApiLiveCall;
  /** Lines given one by one (line()), for a caller without a transcript of its own. */
  lines: LiveLine[];
}

export type LiveChange =
  | { type: 'call-started' | 'call-updated'; entry: LiveEntry }
  | { type: 'turn'; entry: LiveEntry; index: number; turn: ApiLiveTurn }
  | { type: 'call-ended'; entry: LiveEntry };

export interface LiveStart {
  callId: number;
  userId: number;
  fromNumber: string;
  startedAt: Date;
  mode: LiveMode;
  testCall: boolean;
}

export interface LiveRegistryDeps {
  /** A team member's name by their staff row (the call's person); null when there is none. */
  memberName(staffId: number): Promise<string | null>;
  log: Log;
}

/** How the console shows a caller (console/src/lib/format.ts callerLabel, the same words). */
function callerLabel(fromNumber: string): string {
  return isWithheldCaller(fromNumber) ? 'Withheld number' : formatPhone(fromNumber);
}

/** Consecutive lines of one side joined into one turn, as formatTranscript joins them before redacting. */
function joinTurns(lines: readonly LiveLine[]): LiveLine[] {
  const out: LiveLine[] = [];
  for (const l of lines) {
    const last = out.at(-1);
    if (last && last.speaker === l.speaker) last.text = `${last.text} ${l.text}`;
    else out.push({ ...l });
  }
  return out;
}

export class LiveCallRegistry implements LiveCallFeed {
  private readonly calls = new Map<number, LiveEntry>();
  private readonly listeners = new Set<(change: LiveChange) => void>();
  private control: LiveCallControl | undefined;

  constructor(private readonly deps: LiveRegistryDeps) {}

  /** The PBX's End call, once it runs (the root attaches it); without it End call says the phone system is not connected. */
  attachControl(control: LiveCallControl | undefined): void {
    this.control = control;
  }

  started(s: LiveStart): void {
    const entry: LiveEntry = {
      userId: s.userId,
      lines: [],
      call: { id: s.callId, caller: callerLabel(s.fromNumber), fromNumber: s.fromNumber, since: s.startedAt.toISOString(), mode: s.mode, staffId: null, forName: null, testCall: s.testCall, turns: [] },
    };
    this.calls.set(s.callId, entry);
    this.emit({ type: 'call-started', entry });
  }

  /** Routing named the call's person (null: nobody, e.g. no one answered the ring-first). */
  attributed(callId: number, staffId: number | null): void {
    const entry = this.calls.get(callId);
    if (!entry || entry.call.staffId === staffId) return;
    if (staffId === null) {
      entry.call = { ...entry.call, staffId: null, forName: null };
      this.emit({ type: 'call-updated', entry });
      return;
    }
    void this.deps.memberName(staffId).then(
      (name) => {
        if (this.calls.get(callId) !== entry) return;
        entry.call = { ...entry.call, staffId, forName: name };
        this.emit({ type: 'call-updated', entry });
      },
      (err: unknown) => this.deps.log.warn({ err, callId, staffId }, 'live calls: could not read the team member’s name'),
    );
  }

  mode(callId: number, mode: LiveMode): void {
    const entry = this.calls.get(callId);
    if (!entry || entry.call.mode === mode) return;
    entry.call = { ...entry.call, mode };
    this.emit({ type: 'call-updated', entry });
  }

  /** The dialogue so far: joined into turns and redacted as formatTranscript does; a turn new or changed is an event. */
  transcript(callId: number, lines: readonly LiveLine[]): void {
    const entry = this.calls.get(callId);
    if (!entry) return;
    const at = new Date().toISOString();
    const turns = joinTurns(lines);
    turns.forEach((t, index) => {
      const before = entry.call.turns[index];
      // Redacted exactly as the stored transcript is (pbx/flows/agent/transcript.ts).
      const text = redactCardNumbers(t.text);
      if (before && before.speaker === t.speaker && before.text === text) return;
      const turn: ApiLiveTurn = { speaker: t.speaker, text, at: before?.speaker === t.speaker ? before.at : at };
      entry.call.turns[index] = turn;
      this.emit({ type: 'turn', entry, index, turn });
    });
  }

  /** One line said outside a transcript (a test's or a bench's): added to the call's dialogue. */
  line(callId: number, l: LiveLine): void {
    const entry = this.calls.get(callId);
    if (!entry) return;
    entry.lines.push(l);
    this.transcript(callId, entry.lines);
  }

  ended(callId: number): void {
    const entry = this.calls.get(callId);
    if (!entry) return;
    this.calls.delete(callId);
    this.emit({ type: 'call-ended', entry });
  }

  /** The business's calls in progress, oldest first. */
  list(userId: number): LiveEntry[] {
    return [...this.calls.values()].filter((e) => e.userId === userId);
  }

  find(callId: number): LiveEntry | undefined {
    return this.calls.get(callId);
  }

  /** All calls in progress on this node (a count for health and benches). */
  get size(): number {
    return this.calls.size;
  }

  /** Hangs the call up through the PBX: 'ended', 'gone' (no longer in progress here) or 'no-pbx'. */
  async end(callId: number): Promise<'ended' | 'gone' | 'no-pbx'> {
    if (!this.calls.has(callId)) return 'gone';
    if (!this.control) return 'no-pbx';
    return (await this.control.end(callId)) ? 'ended' : 'gone';
  }

  subscribe(listener: (change: LiveChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: LiveChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        // One broken stream must not stop the others, nor the call that reported.
        this.deps.log.warn({ err }, 'live calls: a listener failed');
      }
    }
  }
}
