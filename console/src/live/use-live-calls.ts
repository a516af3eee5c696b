import { useSyncExternalStore } from 'react';
import type { ApiLiveCall, LiveEventData } from '../../../contract/api';
import { LIVE_EVENTS_PATH } from '../api/paths';
import { applyLiveEvent, LIVE_EVENT_NAMES } from '../lib/live';

// The calls in progress, from the live events stream: one EventSource per tab, shared by the nav's
// count and the Live page (useSyncExternalStore), opened with the first reader and closed with
// the last. No polling: the browser reconnects on its own and each connection starts with a snapshot.

let calls: ApiLiveCall[] = [];
let source: EventSource | null = null;
const readers = new Set<() => void>();

function open(): void {
  source = new EventSource(LIVE_EVENTS_PATH);
  for (const name of LIVE_EVENT_NAMES) {
    source.addEventListener(name, (e) => {
      calls = applyLiveEvent(calls, name, JSON.parse((e as MessageEvent<string>).data) as LiveEventData[typeof name]);
      for (const r of readers) r();
    });
  }
}

function subscribe(reader: () => void): () => void {
  readers.add(reader);
  if (!source) open();
  return () => {
    readers.delete(reader);
    if (readers.size === 0) {
      source?.close();
      source = null;
      calls = [];
    }
  };
}

/** The business's calls in progress that this sign-in may see, live; `enabled` false (an admin) reads nothing. */
export function useLiveCalls(enabled = true): ApiLiveCall[] {
  return useSyncExternalStore(enabled ? subscribe : noSubscribe, () => (enabled ? calls : NONE));
}

const NONE: ApiLiveCall[] = [];
const noSubscribe = () => () => undefined;
