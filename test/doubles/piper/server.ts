import { encodeWav } from '../../ari-sim/wav.js';
import { listen, readBody, sendJson } from '../ollama/http-util.js';

/**
 * A double of the Piper service (deploy/piper/server.ts): `GET /voices` lists `voices`,
 * `POST /synthesize {"text","voice"}` answers a WAV at 22.05 kHz (Piper's medium voices' rate)
 * of 1.5 s of a tone, or the service's 400 for an unknown voice or empty text. `GET /health`
 * answers ok. Every synthesis asked for is kept in `requests`.
 */
export interface PiperDouble {
  url: string;
  voices: string[];
  requests: Array<{ text: string; voice: string }>;
  /** Answer every synthesis with this status and `{"error": ...}` instead of audio. */
  failure: { status: number; error: string } | null;
  close(): Promise<void>;
}

const RATE = 22_050;

function tone(ms: number): Buffer {
  const samples = Math.round((RATE * ms) / 1000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)), i * 2);
  return encodeWav(pcm, { sampleRate: RATE, channels: 1, bitsPerSample: 16 });
}

export async function startPiperDouble(voices: string[]): Promise<PiperDouble> {
  const wav = tone(1500);
  const double: Omit<PiperDouble, 'url' | 'close'> = { voices: [...voices], requests: [], failure: null };
  const server = await listen(async (req, res) => {
    if (req.method === 'GET' && req.url === '/health') return sendJson(res, 200, { status: 'ok' });
    if (req.method === 'GET' && req.url === '/voices') return sendJson(res, 200, { voices: double.voices });
    if (req.method === 'POST' && req.url === '/synthesize') {
      const body = JSON.parse((await readBody(req)).toString('utf8')) as { text?: string; voice?: string };
      double.requests.push({ text: body.text ?? '', voice: body.voice ?? '' });
      if (double.failure) return sendJson(res, double.failure.status, { error: double.failure.error });
      if (!body.text?.trim()) return sendJson(res, 400, { error: 'text is empty: send the sentence to speak' });
      if (!double.voices.includes(body.voice ?? '')) return sendJson(res, 400, { error: `unknown voice ${body.voice}` });
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length });
      return res.end(wav);
    }
    sendJson(res, 404, { error: 'not found' });
  });
  return Object.assign(double, { url: server.url, close: server.close });
}
