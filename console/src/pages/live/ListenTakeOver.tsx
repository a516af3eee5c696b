// Listen and Take over on one live call's card (issue 54); the Live page mounts it per call.
// Listen: this browser hears both sides through Asterisk, one way (the caller cannot hear it).
// Take over: the assistant says a handover line and leaves; the owner joins the caller, in this
// browser or on their phone (the box dials it). The line code is Call my line's (lib/webrtc-line.ts).
import { Ear, EarOff, PhoneForwarded, PhoneOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { callMyLineSocketUrl } from '../../api/call-my-line';
import { requestListen, requestTakeOver } from '../../api/live-control';
import { AudioClip } from '../../components/AudioClip';
import { Button } from '../../components/ui';
import { messageOr } from '../../lib/errors';
import { LISTEN_STATE_TEXT, liveActions, type ListenState } from '../../lib/listen-words';
import { openWebRtcLine, type WebRtcLine } from '../../lib/webrtc-line';
import type { ApiLiveLine } from '../../../../contract/schemas/listen';

export function ListenTakeOver({ callId, mode }: { callId: number; mode: string }) {
  const [state, setState] = useState<ListenState>('idle');
  const [detail, setDetail] = useState<string | null>(null);
  const [choosing, setChoosing] = useState(false);
  const line = useRef<WebRtcLine | null>(null);
  const audio = useRef<HTMLAudioElement | null>(null);

  const stopLine = () => {
    line.current?.stop();
    line.current = null;
  };
  useEffect(() => () => stopLine(), []);

  /** Joins with a line the server issued: `joined` is the state once Asterisk has bridged it. */
  const join = (creds: ApiLiveLine, joined: ListenState) => {
    stopLine();
    const opened: WebRtcLine = openWebRtcLine(creds, callMyLineSocketUrl(creds.wsPath), {
      unreachable: () => {
        if (line.current !== opened) return;
        setState('failed');
        setDetail('Could not reach the appliance.');
        stopLine();
      },
      progress: () => undefined,
      confirmed: () => setState(joined),
      remote: (stream) => {
        if (audio.current) audio.current.srcObject = stream;
      },
      local: () => undefined,
      ended: () => {
        if (line.current !== opened) return;
        setState('ended');
        line.current = null;
      },
      failed: (why) => {
        if (line.current !== opened) return;
        setState('failed');
        setDetail(why);
        line.current = null;
      },
    });
    line.current = opened;
  };

  const listen = async () => {
    setDetail(null);
    setState('connecting');
    try {
      join(await requestListen(callId), 'listening');
    } catch (e) {
      setState('failed');
      setDetail(messageOr(e, 'Could not listen in to this call.'));
    }
  };

  const takeOver = async (via: 'browser' | 'phone') => {
    setChoosing(false);
    setDetail(null);
    setState('taking-over');
    try {
      const r = await requestTakeOver(callId, via);
      if (r.via === 'browser') join(r.line, 'on-call');
      else {
        // The listen (if any) ends: the owner hears the call on their phone now.
        stopLine();
        setState('dialling-phone');
      }
    } catch (e) {
      setState(line.current ? 'listening' : 'failed');
      setDetail(messageOr(e, 'Could not take this call over.'));
    }
  };

  const actions = liveActions(mode, state);
  return (
    <div className="grid gap-2" data-testid={`live-control-${callId}`}>
      <div className="flex flex-wrap items-center gap-2">
        {actions.listen && (
          <Button variant="secondary" onClick={() => void listen()}>
            <Ear className="h-4 w-4" aria-hidden /> Listen
          </Button>
        )}
        {actions.stopListening && (
          <Button variant="secondary" onClick={() => line.current?.hangUp()}>
            <EarOff className="h-4 w-4" aria-hidden /> Stop listening
          </Button>
        )}
        {actions.takeOver && !choosing && (
          <Button onClick={() => setChoosing(true)}>
            <PhoneForwarded className="h-4 w-4" aria-hidden /> Take over
          </Button>
        )}
        {actions.takeOver && choosing && (
          <div role="group" aria-label="Take over the call" className="flex flex-wrap gap-2">
            <Button onClick={() => void takeOver('browser')}>In this browser</Button>
            <Button variant="secondary" onClick={() => void takeOver('phone')}>On my phone</Button>
            <Button variant="secondary" onClick={() => setChoosing(false)}>Cancel</Button>
          </div>
        )}
        {actions.hangUp && (
          <Button variant="danger" onClick={() => line.current?.hangUp()}>
            <PhoneOff className="h-4 w-4" aria-hidden /> Hang up
          </Button>
        )}
        <span role="status" className="text-sm font-medium" data-testid={`live-control-state-${callId}`}>
          {LISTEN_STATE_TEXT[state]}
        </span>
      </div>
      {detail && <p className="text-sm text-red-700 dark:text-red-300">{detail}</p>}
      <AudioClip ref={audio} autoPlay data-testid={`live-control-audio-${callId}`} />
    </div>
  );
}
