import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ENGLISH_NAMES, isLanguageCode, parseAllowList, type LanguageCode } from '../../dialogue/language/languages.js';
import { convertGreetingRecording } from '../../models/audio/greeting-converter.js';
import { GREETING_RECORDING_MAX_BYTES, GreetingRecordingRefused, greetingRecordingFile, recordingSoundKey, tooBig, VOICEMAIL_GREETING_KEY } from '../../models/audio/greeting-recording.js';
import { discardRecordedPrompt } from '../../models/tts/recorded-prompt.js';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { hasVoicemailGreetingRecording, recordedGreetingLanguages, updateUser } from '../accounts/users.js';
import type { User } from '../db/schema.js';
import { badRequest, notFound } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { failureCounter } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';

// The owner's own recording of the greeting line per caller language (issue 42 item 4), and of
// the voicemail greeting (issue 57): PUT a WAV, GET it back to play in the console, DELETE to go
// back to the spoken line. Both share the checks, limits, rate limits and storage. The
// file is checked and converted before anything is written, so a refusal changes nothing.

const Params = Type.Object({ language: Type.String({ maxLength: 16 }) });
const RecordingsResponse = Type.Object({ greetingRecordings: Type.Array(Type.String()) });
const VoicemailRecordingResponse = Type.Object({ voicemailGreetingRecording: Type.Boolean() });

/** The language in the URL, if the owner's callers may be answered in it; a 400 naming it otherwise. */
function allowedLanguage(user: User, language: string): LanguageCode {
  if (!isLanguageCode(language)) throw badRequest(`The agent does not speak "${language}", so it has no greeting line in it.`);
  if (!parseAllowList(user.agentLanguages).includes(language)) throw badRequest(`Tick ${ENGLISH_NAMES[language]} under Caller Languages before recording a greeting in it.`);
  return language;
}

export async function greetingRecordingRoutes(app: App): Promise<void> {
  const { database, config } = app.services;
  // A WAV body as bytes (this plugin's routes only; the same-origin guard lets only WAV types
  // and JSON through). The cap is enforced here, before buffering more.
  app.addContentTypeParser(['audio/wav', 'audio/wave', 'audio/x-wav'], { parseAs: 'buffer', bodyLimit: GREETING_RECORDING_MAX_BYTES }, (_req, body, done) => done(null, body));
  app.setErrorHandler((error, _req, reply) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(400).send({ message: tooBig() });
    throw error;
  });

  // Every upload counts, refused or not: receiving and converting it is the cost. Claimed before
  // the body is read (onRequest), per owner and per box; a box-wide refusal gives the owner's back.
  const perOwner = failureCounter(app, 'greetingUploadsPerOwner', (req) => `owner:${req.user?.id}`);
  const perBox = failureCounter(app, 'greetingUploadsPerBox', () => 'box');
  const claimUpload = async (req: FastifyRequest) => {
    const owner = await perOwner.claim(req, (wait) => `You have uploaded greeting recordings too often. Nothing was saved: please wait ${wait} and upload again.`);
    try {
      await perBox.claim(req, (wait) => `Too many greeting recordings are being uploaded on this system right now. Nothing was saved: please wait ${wait} and upload again.`);
    } catch (err) {
      await owner.giveBack();
      throw err;
    }
  };

  const stored = (user: User) => user.greetingRecordings ?? {};
  const fileOf = (user: User, name: string) => greetingRecordingFile(config.dataDir, user.id, name);
  /** Frees what a recording no longer named leaves: its file, and the sound Asterisk played it as (the voicemail greeting's). */
  const forget = async (user: User, name: string) => {
    await fs.rm(fileOf(user, name), { force: true });
    await discardRecordedPrompt(config.dataDir, recordingSoundKey(user.id, name));
  };

  // One way to store, read and remove a recording, whichever greeting it is: the agent's line
  // in a caller language, or the voicemail greeting (VOICEMAIL_GREETING_KEY, issue 57).
  const save = async (req: FastifyRequest, user: User, key: string): Promise<User> => {
    if (!Buffer.isBuffer(req.body)) throw badRequest('Send the recording as a WAV file (Content-Type: audio/wav).');
    let prepared;
    try {
      prepared = await convertGreetingRecording(req.body, key);
    } catch (err) {
      if (err instanceof GreetingRecordingRefused) throw badRequest(err.message, { recording: err.message });
      throw err;
    }
    const file = fileOf(user, prepared.fileName);
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Written beside its name and renamed: a call never reads half a file.
    const temp = `${file}.${randomBytes(4).toString('hex')}.part`;
    await fs.writeFile(temp, prepared.wav, { mode: 0o644 });
    await fs.rename(temp, file);
    const before = stored(user)[key];
    let saved;
    try {
      saved = await updateUser(database.db, user.id, { greetingRecordings: { ...stored(user), [key]: prepared.fileName } });
    } catch (err) {
      if (before !== prepared.fileName) await fs.rm(file, { force: true });
      throw err;
    }
    if (before && before !== prepared.fileName) await forget(user, before);
    req.log.info({ greeting: key, durationMs: prepared.durationMs }, 'greeting recording saved');
    return saved ?? user;
  };
  const audioOf = async (user: User, key: string) => {
    const name = stored(user)[key];
    return name ? await fs.readFile(fileOf(user, name)).catch(() => undefined) : undefined;
  };
  const remove = async (user: User, key: string): Promise<User> => {
    const name = stored(user)[key];
    if (!name) return user;
    const rest = { ...stored(user) };
    delete rest[key];
    const saved = await updateUser(database.db, user.id, { greetingRecordings: Object.keys(rest).length ? rest : null });
    await forget(user, name);
    return saved ?? user;
  };
  const wavReply = (reply: FastifyReply, audio: Buffer) => reply.header('content-type', 'audio/wav').header('cache-control', 'private, no-store').send(audio);

  app.put(
    '/api/agent/greeting-recordings/:language',
    { schema: { params: Params, response: { 200: RecordingsResponse, 400: ApiErrorSchema, 429: ApiErrorSchema } }, config: { wavBody: true }, onRequest: claimUpload },
    async (req) => {
      const user = currentUser(req);
      return { greetingRecordings: recordedGreetingLanguages(await save(req, user, allowedLanguage(user, req.params.language))) };
    },
  );

  app.get(
    '/api/agent/greeting-recordings/:language',
    { schema: { params: Params }, config: { rawReply: true } },
    async (req, reply) => {
      const user = currentUser(req);
      const language = allowedLanguage(user, req.params.language);
      const audio = await audioOf(user, language);
      if (!audio) throw notFound(`There is no recorded ${ENGLISH_NAMES[language]} greeting: callers hear the spoken line.`);
      return wavReply(reply, audio);
    },
  );

  app.delete(
    '/api/agent/greeting-recordings/:language',
    { schema: { params: Params, response: { 200: RecordingsResponse, 400: ApiErrorSchema } } },
    async (req) => {
      const user = currentUser(req);
      return { greetingRecordings: recordedGreetingLanguages(await remove(user, allowedLanguage(user, req.params.language))) };
    },
  );

  // The voicemail greeting (issue 57): callers hear this recording instead of the spoken greeting.
  app.put(
    '/api/voicemail/greeting-recording',
    { schema: { response: { 200: VoicemailRecordingResponse, 400: ApiErrorSchema, 429: ApiErrorSchema } }, config: { wavBody: true }, onRequest: claimUpload },
    async (req) => ({ voicemailGreetingRecording: hasVoicemailGreetingRecording(await save(req, currentUser(req), VOICEMAIL_GREETING_KEY)) }),
  );

  app.get('/api/voicemail/greeting-recording', { config: { rawReply: true } }, async (req, reply) => {
    const audio = await audioOf(currentUser(req), VOICEMAIL_GREETING_KEY);
    if (!audio) throw notFound('There is no recorded voicemail greeting: callers hear the spoken greeting.');
    return wavReply(reply, audio);
  });

  app.delete(
    '/api/voicemail/greeting-recording',
    { schema: { response: { 200: VoicemailRecordingResponse } } },
    async (req) => ({ voicemailGreetingRecording: hasVoicemailGreetingRecording(await remove(currentUser(req), VOICEMAIL_GREETING_KEY)) }),
  );
}
