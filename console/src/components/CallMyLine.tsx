// "Call my line": a real call from this browser to the owner's own number, through the
// appliance's Asterisk (lib/webrtc-line.ts, shared with the live calls' Listen and Take over),
// so the owner hears exactly what a caller hears.
import { Mic, MicOff, PhoneCall, PhoneOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useOwnerLineState } from '../api/line-state';
import { usePhoneNumbers } from '../api/queries';
import { requestCallMyLine, callMyLineSocketUrl } from '../api/call-my-line';
import { messageOr } from '../lib/errors';
import { openWebRtcLine, type WebRtcLine } from '../lib/webrtc-line';
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
  const line = useRef<WebRtcLine | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  const stopLine = () => {
    line.current?.stop();
    line.current = null;
    setLocal(null);
    setRemote(null);
    setMuted(false);
  };
  useEffect(() => () => stopLine(), []);

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
    const opened: WebRtcLine = openWebRtcLine(creds, callMyLineSocketUrl(creds.wsPath), {
      unreachable: () => {
        if (line.current !== opened) return;
        setState('failed');
        setDetail('Could not reach the appliance.');
        stopLine();
      },
      progress: () => setState('ringing'),
      confirmed: (mine) => {
        setState('in-call');
        if (mine) setLocal(mine);
      },
      remote: (stream) => {
        if (audio.current) audio.current.srcObject = stream;
        setRemote(stream);
      },
      local: setLocal,
      ended: () => {
        setState('ended');
        stopLine();
      },
      failed: (why) => {
        setState('failed');
        setDetail(why);
        stopLine();
      },
    });
    line.current = opened;
  };

  const hangUp = () => {
    if (line.current) line.current.hangUp();
    else stopLine();
  };
  const toggleMute = () => {
    if (!line.current) return;
    line.current.mute(!muted);
    setMuted(!muted);
  };

  const numbers = usePhoneNumbers();
  const lineState = useOwnerLineState({ enabled: true });
  // Saved settings only: the call runs what a caller would get now.
  if (!numbers.data?.numbers.length) return null;
  // Offered only when it can ring: with the phone system down, or a box without one, say so plainly instead.
  const cannotRing = lineState.data && !lineState.data.testCallAvailable && state === 'idle';
  const down = lineState.data?.problems.some((p) => p.id === 'pbx-down');
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
