// "Call my line": a real call from this browser to the owner's own number, through the
// appliance's Asterisk (WebRTC: SIP over the console's WebSocket, DTLS-SRTP, G.711), so the
// owner hears exactly what a caller hears. JsSIP does the SIP; the browser's peer connection
// does the audio, with its echo cancellation (the agent's barge-in must not hear itself).
import JsSIP from 'jssip';
import type { RTCSession } from 'jssip/lib/RTCSession';
import { Mic, MicOff, PhoneCall, PhoneOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useOwnerLineState } from '../api/line-state';
import { usePhoneNumbers } from '../api/queries';
import { requestCallMyLine, callMyLineSocketUrl } from '../api/call-my-line';
import { messageOr } from '../lib/errors';
import { Button } from './ui';
import { PlainCard, type CardFrame } from './card-frame';
import { OperatorContact } from './OperatorContact';
import { AudioClip } from './AudioClip';

type CallState = 'idle' | 'connecting' | 'ringing' | 'in-call' | 'ended' | 'failed';

const STATE_TEXT: Record<CallState, string> = {
  idle: 'Not in a call',
  connecting: 'Connecting…',
  ringing: 'Ringing…',
  'in-call': 'In call',
  ended: 'Call ended',
  failed: 'Call failed',
};

/** 0–1: the loudness of a stream, read ~15 times a second. */
function useLevel(stream: MediaStream | null): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!stream || stream.getAudioTracks().length === 0) return;
    const ctx = new AudioContext();
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 512;
    ctx.createMediaStreamSource(stream).connect(analyser);
    const buf = new Float32Array(analyser.fftSize);
    const timer = window.setInterval(() => {
      analyser.getFloatTimeDomainData(buf);
      let sum = 0;
      for (const v of buf) sum += v * v;
      setLevel(Math.min(1, Math.sqrt(sum / buf.length) * 4));
    }, 66);
    return () => {
      window.clearInterval(timer);
      void ctx.close();
      setLevel(0);
    };
  }, [stream]);
  return level;
}

function LevelMeter({ label, stream }: { label: string; stream: MediaStream | null }) {
  const level = useLevel(stream);
  return (
    <div className="flex items-center gap-3 text-sm">
      <span className="w-24 text-slate-600 dark:text-slate-400">{label}</span>
      <meter className="h-2 flex-1" min={0} max={1} value={level} aria-label={`${label} level`} />
    </div>
  );
}

/** `Frame`: a plain card unless the page makes it one a phone can close. */
export default function CallMyLine({ Frame = PlainCard }: { Frame?: CardFrame }) {
  const [state, setState] = useState<CallState>('idle');
  const [detail, setDetail] = useState<string | null>(null);
  const [muted, setMuted] = useState(false);
  const [local, setLocal] = useState<MediaStream | null>(null);
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const ua = useRef<JsSIP.UA | null>(null);
  const session = useRef<RTCSession | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  const stopUa = () => {
    ua.current?.stop();
    ua.current = null;
    session.current = null;
    setLocal(null);
    setRemote(null);
    setMuted(false);
  };
  useEffect(() => () => stopUa(), []);

  const start = async () => {
    setDetail(null);
    setState('connecting');
    let creds;
    try {
      creds = await requestCallMyLine();
    } catch (e) {
      setState('failed');
      setDetail(messageOr(e, 'Could not start the call.'));
      return;
    }
    const host = creds.sipUri.split('@')[1] ?? 'callkeeper.invalid';
    const agent = new JsSIP.UA({
      sockets: [new JsSIP.WebSocketInterface(callMyLineSocketUrl(creds.wsPath))],
      uri: `sip:${creds.user}@${host}`,
      authorization_user: creds.user,
      password: creds.password,
      register: false,
      session_timers: false,
      connection_recovery_max_interval: 2,
    });
    ua.current = agent;
    agent.on('disconnected', () => {
      if (ua.current === agent && !session.current) {
        setState('failed');
        setDetail('Could not reach the appliance.');
        stopUa();
      }
    });
    agent.on('connected', () => {
      if (session.current) return;
      const s = agent.call(creds.sipUri, {
        // Echo cancellation stays (the agent's barge-in must not hear itself); gain control and
        // noise suppression are off so the message is recorded as the owner's line would carry it.
        mediaConstraints: { audio: { echoCancellation: true, autoGainControl: false, noiseSuppression: false }, video: false }, pcConfig: { iceServers: creds.iceServers } });
      session.current = s;
      s.connection.addEventListener('track', (ev: RTCTrackEvent) => {
        const stream = ev.streams[0] ?? new MediaStream([ev.track]);
        // Chromium plays (and meters) a remote stream only once an <audio> element has it.
        if (audio.current) audio.current.srcObject = stream;
        setRemote(stream);
      });
      const sender = s.connection.getSenders().find((x) => x.track?.kind === 'audio');
      if (sender?.track) setLocal(new MediaStream([sender.track]));
      s.on('progress', () => setState('ringing'));
      s.on('confirmed', () => {
        setState('in-call');
        const track = s.connection.getSenders().find((x) => x.track?.kind === 'audio')?.track;
        if (track) setLocal(new MediaStream([track]));
      });
      s.on('ended', () => {
        setState('ended');
        stopUa();
      });
      s.on('failed', (e) => {
        setState('failed');
        setDetail(e.cause === JsSIP.C.causes.USER_DENIED_MEDIA_ACCESS ? 'The browser did not allow the microphone.' : `The call did not connect (${e.cause}).`);
        stopUa();
      });
    });
    agent.start();
  };

  const hangUp = () => {
    session.current?.terminate();
    if (!session.current) stopUa();
  };
  const toggleMute = () => {
    if (!session.current) return;
    if (muted) session.current.unmute({ audio: true });
    else session.current.mute({ audio: true });
    setMuted(!muted);
  };

  const numbers = usePhoneNumbers();
  const line = useOwnerLineState({ enabled: true });
  // Saved settings only: the call runs what a caller would get now.
  if (!numbers.data?.numbers.length) return null;
  // Offered only when it can ring: with the phone system down, or a box without one, say so plainly instead.
  const cannotRing = line.data && !line.data.testCallAvailable && state === 'idle';
  const down = line.data?.problems.some((p) => p.id === 'pbx-down');
  const live = state === 'connecting' || state === 'ringing' || state === 'in-call';
  return (
    <Frame
      title="Call my line"
      description="Ring your number from this browser and hear what your callers hear, with your saved settings."
      summary={cannotRing ? (down ? 'Unavailable while the phone system is down' : 'Unavailable: no phone system connected') : state === 'idle' ? 'Ring your number and hear what callers hear' : STATE_TEXT[state]}
      // A call under way, or why one failed, is never folded away.
      keepOpen={live || Boolean(detail)}
      className="mb-6"
    >
      <div className="grid gap-4 p-5">
        <div className="flex flex-wrap items-center gap-3">
          {!live ? (
            <Button onClick={() => void start()} disabled={Boolean(cannotRing)} aria-describedby={cannotRing ? 'call-my-line-unavailable' : undefined}>
              <PhoneCall className="h-4 w-4" aria-hidden /> Call my line
            </Button>
          ) : (
            <>
              <Button variant="danger" onClick={hangUp}>
                <PhoneOff className="h-4 w-4" aria-hidden /> Hang up
              </Button>
              <Button variant="secondary" onClick={toggleMute} disabled={state !== 'in-call'} aria-pressed={muted}>
                {muted ? <MicOff className="h-4 w-4" aria-hidden /> : <Mic className="h-4 w-4" aria-hidden />} {muted ? 'Unmute' : 'Mute'}
              </Button>
            </>
          )}
          <span role="status" data-testid="call-my-line-state" className="text-sm font-medium">
            {STATE_TEXT[state]}
          </span>
        </div>
        {cannotRing && (
          <p id="call-my-line-unavailable" className="text-sm text-slate-700 dark:text-slate-300">
            {down
              ? 'The phone system is down right now, so a test call cannot ring your line. Try again once it is back.'
              : <>This box is not connected to a phone system, so it cannot ring your line. Ask <OperatorContact />, to connect it.</>}
          </p>
        )}
        {detail && <p className="text-sm text-red-700 dark:text-red-300">{detail}</p>}
        <LevelMeter label="You" stream={local} />
        <LevelMeter label="Your line" stream={remote} />
        <p className="text-sm text-slate-500 dark:text-slate-400">Test calls are marked in Call Logs and left out of your analytics.</p>
        <AudioClip ref={audio} autoPlay data-testid="call-my-line-audio" />
      </div>
    </Frame>
  );
}
