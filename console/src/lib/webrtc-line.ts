// One browser call through the appliance's Asterisk (WebRTC: SIP over the console's WebSocket,
// DTLS-SRTP, G.711), shared by "Call my line" and the live calls' Listen and Take over (issue 54):
// JsSIP does the SIP, the browser's peer connection the audio, with its echo cancellation.
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';
import type { ApiCallMyLineCredentials } from '../../../contract/schemas/call-my-line';

export interface WebRtcLineEvents {
  /** The appliance's socket closed before a call was placed. */
  unreachable(): void;
  progress(): void;
  confirmed(local: MediaStream | null): void;
  /** What the other side sends: play it (Chromium plays a remote stream only once an <audio> element has it). */
  remote(stream: MediaStream): void;
  local(stream: MediaStream): void;
  ended(): void;
  /** Why the call did not connect, in words for the page. */
  failed(why: string): void;
}

export interface WebRtcLine {
  hangUp(): void;
  mute(on: boolean): void;
  /** Stops the user agent (its socket, and so the line's credentials). */
  stop(): void;
}

const localTrack = (s: RTCSession) => s.connection.getSenders().find((x) => x.track?.kind === 'audio')?.track ?? null;

/** Connects to `socketUrl` with the line's credentials and rings `creds.sipUri` once. */
export function openWebRtcLine(creds: ApiCallMyLineCredentials, socketUrl: string, on: WebRtcLineEvents): WebRtcLine {
  const host = creds.sipUri.split('@')[1] ?? 'callkeeper.invalid';
  const agent = new JsSIP.UA({
    sockets: [new JsSIP.WebSocketInterface(socketUrl)],
    uri: `sip:${creds.user}@${host}`,
    authorization_user: creds.user,
    password: creds.password,
    register: false,
    session_timers: false,
    connection_recovery_max_interval: 2,
  });
  let session: RTCSession | null = null;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    agent.stop();
  };
  agent.on('disconnected', () => {
    if (!stopped && !session) {
      on.unreachable();
      stop();
    }
  });
  agent.on('connected', () => {
    if (session) return;
    const s = agent.call(creds.sipUri, {
      // Echo cancellation stays (the agent's barge-in must not hear itself); gain control and
      // noise suppression are off so the owner is heard as their line would carry them.
      mediaConstraints: { audio: { echoCancellation: true, autoGainControl: false, noiseSuppression: false }, video: false },
      pcConfig: { iceServers: creds.iceServers },
    });
    session = s;
    s.connection.addEventListener('track', (ev: RTCTrackEvent) => on.remote(ev.streams[0] ?? new MediaStream([ev.track])));
    const first = localTrack(s);
    if (first) on.local(new MediaStream([first]));
    s.on('progress', () => on.progress());
    s.on('confirmed', () => {
      const track = localTrack(s);
      on.confirmed(track ? new MediaStream([track]) : null);
    });
    s.on('ended', () => {
      on.ended();
      stop();
    });
    s.on('failed', (e) => {
      on.failed(e.cause === JsSIP.C.causes.USER_DENIED_MEDIA_ACCESS ? 'The browser did not allow the microphone.' : `The call did not connect (${e.cause}).`);
      stop();
    });
  });
  agent.start();
  return {
    hangUp() {
      if (session) session.terminate();
      else stop();
    },
    mute(onOff) {
      if (!session) return;
      if (onOff) session.mute({ audio: true });
      else session.unmute({ audio: true });
    },
    stop,
  };
}
