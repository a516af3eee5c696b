import type { BackoffPolicy } from '../../../core/ports/retry.js';
import type { Log } from '../../../contract/log.js';
import { openAriEvents } from '../../ari/events-socket.js';
import type { AriEvent } from '../../ari/types.js';

// externalMedia channels must live in a Stasis app, and each gets its own StasisStart.
// Putting them in the call-answering app would make it treat them as inbound calls, so
// they go to a second app, `<app>-media`, registered by an events socket of its own
// (pbx/ari/events-socket.ts; an app exists only while a socket is connected:
// shared/ari/NOTES.md). Of its events only StasisStart/StasisEnd matter: Asterisk answers the
// externalMedia request before the channel has entered the app (Stasis() runs on the
// channel's own thread), and a bridge refuses it until then (422 "Channel not in Stasis
// application", seen on a loaded box), so the agent waits for the StasisStart.

export interface MediaAppOptions {
  url: string;
  username: string;
  password: string;
  app: string;
  log?: Pick<Log, 'warn'>;
}

export interface MediaApp {
  readonly name: string;
  /** True while the app is registered on Asterisk. */
  readonly connected: boolean;
  /** Resolves once the app is registered (the socket is open), or rejects after `ms`. */
  ready(ms?: number): Promise<void>;
  /** Resolves true once `channelId` has entered the app (its StasisStart came), false after `ms`. */
  whenInStasis(channelId: string, ms: number): Promise<boolean>;
  close(): void;
}

/** Re-registering after the socket closed: 200 ms doubling to 10 s. */
const RECONNECT: BackoffPolicy = { baseMs: 200, maxMs: 10_000 };

function mediaAppName(app: string): string {
  return `${app}-media`;
}

export function openMediaApp(opts: MediaAppOptions): MediaApp {
  const name = mediaAppName(opts.app);
  let waiters: Array<() => void> = [];
  // Channels in the app now (StasisStart seen, StasisEnd not yet), and who waits for one.
  const inStasis = new Set<string>();
  const stasisWaiters = new Map<string, Array<() => void>>();
  const onEvent = (e: AriEvent) => {
    const id = e.channel?.id;
    if (!id) return;
    if (e.type === 'StasisStart') {
      inStasis.add(id);
      for (const w of stasisWaiters.get(id)?.splice(0) ?? []) w();
      stasisWaiters.delete(id);
    } else if (e.type === 'StasisEnd') inStasis.delete(id);
  };

  const socket = openAriEvents(
    { url: opts.url, username: opts.username, password: opts.password, apps: [name], backoff: RECONNECT },
    {
      open: () => {
        for (const w of waiters.splice(0)) w();
      },
      down: (failure, news) => {
        if (news) opts.log?.warn({ app: name }, `agent media app not registered: ${failure.message}`);
      },
      event: onEvent,
      warn: (msg, detail) => opts.log?.warn({ app: name, detail }, msg),
    },
  );

  return {
    name,
    get connected() {
      return socket.isOpen;
    },
    ready(ms = 5000) {
      if (socket.isOpen) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => {
          waiters = waiters.filter((w) => w !== done);
          reject(new Error(`ARI media app ${name} could not register within ${ms} ms`));
        }, ms);
        const done = () => (clearTimeout(t), resolve());
        waiters.push(done);
      });
    },
    whenInStasis(channelId, ms) {
      if (inStasis.has(channelId)) return Promise.resolve(true);
      return new Promise((resolve) => {
        const list = stasisWaiters.get(channelId) ?? [];
        stasisWaiters.set(channelId, list);
        const t = setTimeout(() => {
          const left = (stasisWaiters.get(channelId) ?? []).filter((w) => w !== entered);
          if (left.length) stasisWaiters.set(channelId, left);
          else stasisWaiters.delete(channelId);
          resolve(false);
        }, ms);
        const entered = () => (clearTimeout(t), resolve(true));
        list.push(entered);
      });
    },
    close() {
      socket.close();
    },
  };
}
