import type { ModelState } from '../engines/model-readiness.js';
import fs from 'node:fs';
import type { AgentPreviewResult } from '../../contract/api.js';
import { AgentPreviewBody, AgentPreviewResponse, AgentVoicesResponse, GreetingPreviewBody, GreetingPreviewResponse, LinePreviewBody, PreviewAudioParams } from '../../contract/schemas/agent-preview.js';
import { PREVIEW_LINES, type PreviewLine } from '../../contract/languages.js';
import { ENGLISH_NAMES, isLanguageCode, LANGUAGES, parseAllowList } from '../../dialogue/language/languages.js';
import { previewLineText } from '../../dialogue/language/line-preview.js';
import { chosenVoices, languageVoicesProblem } from '../../dialogue/language/language-voices.js';
import { buildAgentSystemPrompt } from '../../dialogue/agent/agent-prompt.js';
import { chooseGreeting } from '../../dialogue/spoken/greeting.js';
import { askAgent } from '../../dialogue/agent/agent-responder.js';
import { answerTurn, bookingAnswer, NoReply } from '../../dialogue/agent/agent-turn.js';
import { BookingWalk } from '../../dialogue/agent/booking-walk.js';
import type { ChatMessage } from '../../models/llm/language-model.js';
import { PreviewSessions } from './preview-sessions.js';
import type { ServerResponse } from 'node:http';
import type { Voice } from '../../models/tts/index.js';
import type { User } from '../db/schema.js';
import { badRequest, forbidden, HttpError, notFound, tooManyRequests } from '../http/errors.js';
import { routeLimit } from '../http/rate-limits.js';
import type { App } from '../http/fastify-types.js';
import { currentUser } from '../http/session-hook.js';

/** Audio files a user may fetch: only the previews they asked for, for a while. */
const AUDIO_TTL_MS = 30 * 60_000;

/**
 * Previews running at once across all owners: the model is shared with live agent calls
 * on a small box, so a few owners testing must never starve a caller.
 */
const MAX_CONCURRENT_PREVIEWS = 2;

/** Greeting previews synthesising at once across all owners: they wait behind live calls' speech, so a few is plenty. */
const MAX_CONCURRENT_GREETING_PREVIEWS = 2;

/** The caller the Try-it plays: a number from Ofcom's drama range, so the walk reads a number back and never finds a real caller's booking. */
const PREVIEW_CALLER = '+447700900000';

/** The turns of a Try-it conversation the model is shown again: a preview is a few questions, not a long call. */
const PREVIEW_HISTORY = 20;

/** What a Try-it conversation remembers between the owner's turns. */
interface Conversation {
  history: ChatMessage[];
  /** The booking walk, on the preview desk (real availability, nothing written); absent when the owner has no bookable services. */
  walk?: BookingWalk;
}

interface PreviewRules {
  inactive: string;
  /** 429: this owner's previous one is still running. */
  ownerBusy: string;
  /** 503: the shared engine has as many previews as it takes. */
  allBusy: string;
  max: number;
}

/**
 * The rules every console preview follows (the engines are shared with live calls): an active
 * account (an expired trial still signs in to read its data, not to use the engines), one at a
 * time per owner, a few at a time in all. Runs `work` within them.
 */
function previewGate(rules: PreviewRules) {
  const inFlight = new Set<number>();
  return async <T>(user: User, work: () => Promise<T>): Promise<T> => {
    if (user.role !== 'admin' && user.accountStatus !== 'active') throw forbidden(rules.inactive);
    if (inFlight.has(user.id)) throw tooManyRequests(rules.ownerBusy);
    if (inFlight.size >= rules.max) throw new HttpError(503, rules.allBusy);
    inFlight.add(user.id);
    try {
      return await work();
    } finally {
      inFlight.delete(user.id);
    }
  };
}

/**
 * POST /api/agent/preview: what a caller would hear from the current, unsaved knowledge
 * base, through the same prompt builder, model call and turn rules as the phone path.
 */
export async function agentPreviewRoutes(app: App): Promise<void> {
  const { log, agentEngines: engines } = app.services;
  const voicesOf = (language: string) => engines.speech.voices?.(language) ?? [];
  const audioGrants = new Map<string, { userId: number; file: string; expires: number }>();
  const conversations = new PreviewSessions<Conversation>(() => app.services.now().getTime());
  // One preview per owner at a time, and only a few overall: the model is shared with live calls.
  const agentGate = previewGate({
    inactive: 'Trying the AI agent needs an active account. Please contact support to continue.',
    ownerBusy: 'Your previous question is still being answered. Please wait a moment.',
    allBusy: 'The AI agent is busy with other previews right now. Please try again in a moment.',
    max: MAX_CONCURRENT_PREVIEWS,
  });
  // The voice engine is shared with live agent calls, which speak first.
  const greetingGate = previewGate({
    inactive: 'Hearing your greeting needs an active account. Please contact support to continue.',
    ownerBusy: 'Your previous greeting is still being made. Please wait a moment.',
    allBusy: 'The voice engine is busy with other previews right now. Please try again in a moment.',
    max: MAX_CONCURRENT_GREETING_PREVIEWS,
  });
  // Signed-in owners only (the /api scope's guard), so the per-owner limit keys on them.
  const perOwner = routeLimit(app.rateLimits.previewsPerOwner, (req) => `owner:${req.user?.id}`, 'preHandler');

  app.post('/api/agent/preview', { schema: { body: AgentPreviewBody, response: { 200: AgentPreviewResponse } }, config: perOwner }, async (req, reply) => {
    const user = currentUser(req);
    const question = req.body.question.trim();
    const businessName = req.body.businessName !== undefined ? req.body.businessName : user.businessName;
    const knowledgeBase = req.body.knowledgeBase ?? '';
    return agentGate(user, async () => {
      if (!question) throw badRequest('Type a question to try the agent.', { question: 'Question is required' });
      const { sessionId, conversation } = await converse(user, req.body.sessionId);
      return { sessionId, ...(await preview(user, conversation, question, businessName, knowledgeBase, req.body.voice ?? user.voicePreference, reply.raw)) };
    });
  });

  /** The conversation the question carries on, or a new one (with a booking walk when the owner has bookable services). */
  async function converse(user: User, sessionId: string | undefined): Promise<{ sessionId: string; conversation: Conversation }> {
    if (sessionId !== undefined) {
      const conversation = conversations.get(user.id, sessionId);
      if (!conversation) throw notFound('This conversation with the agent has expired. Ask your question again to start a new one.');
      return { sessionId, conversation };
    }
    const desk = app.services.booking.desk(user.id, { preview: true });
    const services = await desk.services();
    const conversation: Conversation = {
      history: [],
      ...(services.length > 0 && { walk: new BookingWalk({ desk, services, callId: 0, callerId: PREVIEW_CALLER, log }) }),
    };
    const id = conversations.open(user.id, conversation);
    if (!id) throw new HttpError(503, 'Too many owners are trying the agent right now. Please try again in a few minutes.');
    return { sessionId: id, conversation };
  }

  async function preview(user: User, conversation: Conversation, question: string, businessName: string | null, knowledgeBase: string, voice: Voice, res: ServerResponse) {
    const { walk } = conversation;
    // Issue 60: on a new box the model may still be downloading; say so at once rather than wait on Ollama's 404.
    if (!engines.model.ready()) throw new HttpError(503, modelNotReadyMessage(engines.model.state()));
    // The phone's prompt: with a booking desk it offers "book", and shows the step under way.
    const system = buildAgentSystemPrompt({ businessName, knowledgeBase, ...(walk && { booking: { step: walk.promptStep() } }) });
    const ac = new AbortController();
    // The owner navigated away before the answer: stop the model (and the diary).
    res.once('close', () => !res.writableEnded && ac.abort());

    let turn;
    try {
      turn = await answerTurn(askAgent(engines.replies, { system, history: conversation.history, callerText: question }, ac.signal), businessName, undefined, { canBook: walk !== undefined });
    } catch (err) {
      if (err instanceof NoReply) throw new HttpError(503, 'The AI engine gave no answer. Please try again.');
      log.warn({ err }, 'agent preview: the language model failed');
      throw new HttpError(503, 'The AI engine is not answering right now. Check that Ollama is running, then try again.');
    }
    let ended: AgentPreviewResult['ended'];
    if (turn.outcome.kind === 'book' && walk) {
      // The call's own walk, on the preview desk: the real free times, and nothing written.
      const booking = await walk.turn(turn.reply.booking, question, ac.signal);
      turn = bookingAnswer(turn, booking.say);
      ended = booking.ended;
    } else if (turn.outcome.kind === 'take-message' || turn.outcome.kind === 'transfer') walk?.abandon();
    conversation.history.push({ role: 'user', content: question }, turn.historyReply);
    conversation.history.splice(0, Math.max(0, conversation.history.length - PREVIEW_HISTORY));

    const answer = turn.said;
    const result: Omit<AgentPreviewResult, 'sessionId'> = { answer, answered: turn.outcome.kind === 'answer' || turn.outcome.kind === 'book', ...(ended && { ended }) };

    try {
      const prompt = await engines.speech.get(answer, voice, 'background');
      result.audioUrl = grantAudio(user.id, prompt.file);
    } catch (err) {
      // Text still helps the owner; the audio is a bonus when the voice engine works.
      log.warn({ err }, 'agent preview: speech synthesis failed');
    }
    return result;
  }

  function grantAudio(userId: number, file: string): string {
    const key = file.split('/').pop()!.replace(/\.wav$/, '');
    const now = Date.now();
    for (const [k, g] of audioGrants) if (g.expires < now) audioGrants.delete(k);
    audioGrants.set(`${userId}:${key}`, { userId, file, expires: now + AUDIO_TTL_MS });
    return `/api/agent/preview/audio/${key}`;
  }

  /**
   * POST /api/greeting/preview: the voicemail greeting exactly as callers hear it, from the
   * unsaved form: the same wording rule (dialogue/spoken/greeting.ts) and the same voice through
   * the same prompt cache as the phone path, so the file played is the one a caller would get.
   */
  app.post('/api/greeting/preview', { schema: { body: GreetingPreviewBody, response: { 200: GreetingPreviewResponse } }, config: perOwner }, async (req) => {
    const user = currentUser(req);
    const text = chooseGreeting({
      businessName: req.body.businessName !== undefined ? req.body.businessName : user.businessName,
      callGreeting: req.body.callGreeting !== undefined ? req.body.callGreeting : user.callGreeting,
    });
    return greetingGate(user, async () => {
      try {
        const prompt = await engines.speech.get(text, req.body.voice ?? user.voicePreference, 'background');
        return { text, audioUrl: grantAudio(user.id, prompt.file) };
      } catch (err) {
        log.warn({ err }, 'greeting preview: speech synthesis failed');
        throw new HttpError(503, 'The voice engine is not answering right now, so the greeting cannot be played. Please try again.');
      }
    });
  });

  /**
   * POST /api/agent/line-preview: one of the agent's fixed lines in a caller language and
   * voice, through the same prompt cache and language voice (models/tts/voices.ts) as a call,
   * so the owner hears exactly what a Polish or Urdu caller would. Shares the greeting's gate.
   */
  app.post('/api/agent/line-preview', { schema: { body: LinePreviewBody, response: { 200: GreetingPreviewResponse } }, config: perOwner }, async (req) => {
    const user = currentUser(req);
    const { language, line } = req.body;
    if (!isLanguageCode(language)) {
      throw badRequest(`The agent does not speak "${language}". Choose from ${LANGUAGES.map((c) => `${c} (${ENGLISH_NAMES[c]})`).join(', ')}.`, { language: 'Choose a caller language' });
    }
    if (!Object.hasOwn(PREVIEW_LINES, line)) throw badRequest(`There is no line "${line}" to hear. Choose from ${Object.keys(PREVIEW_LINES).join(', ')}.`, { line: 'Choose a line' });
    const { voice, languageVoice } = req.body;
    // A voice asked for must be one the box has for this language, as a save checks; ticked or not, so an owner can listen before ticking.
    const asked = languageVoice !== undefined && languageVoicesProblem({ [language]: languageVoice }, LANGUAGES, voicesOf);
    if (asked) throw badRequest(asked, { languageVoice: asked });
    // Neither voice asked for: the line as a caller hears it, in the owner's saved choice.
    const chosen = languageVoice ?? (voice ? undefined : chosenVoices(user.languageVoices, parseAllowList(user.agentLanguages))[language]);
    const text = previewLineText(language, line as PreviewLine, user.businessName);
    return greetingGate(user, async () => {
      try {
        const prompt = await engines.speech.get(text, voice ?? user.voicePreference, 'background', language, chosen);
        return { text, audioUrl: grantAudio(user.id, prompt.file) };
      } catch (err) {
        log.warn({ err, language }, 'line preview: speech synthesis failed');
        throw new HttpError(503, 'The voice engine is not answering right now, so the line cannot be played. Please try again.');
      }
    });
  });

  /** GET /api/agent/voices: for each caller language but English, the voices this box has installed (the console's voice pickers). */
  app.get('/api/agent/voices', { schema: { response: { 200: AgentVoicesResponse } } }, async () => ({
    languages: Object.fromEntries(LANGUAGES.filter((l) => l !== 'en').map((l) => [l, voicesOf(l)])),
  }));

  app.get(
    '/api/agent/preview/audio/:key',
    { schema: { params: PreviewAudioParams }, config: { rawReply: true } },
    async (req, reply) => {
      const user = currentUser(req);
      const grant = audioGrants.get(`${user.id}:${req.params.key}`);
      if (!grant || grant.expires < Date.now() || !fs.existsSync(grant.file)) throw notFound('This preview has expired. Ask again.');
      reply.header('content-type', 'audio/wav').header('cache-control', 'private, max-age=1800');
      return reply.send(fs.createReadStream(grant.file));
    },
  );
}

/** The preview's answer while the language model is not on the box yet (issue 60). */
function modelNotReadyMessage(s: ModelState): string {
  if (s.state === 'downloading') return `The AI agent is not ready yet: the language model is still downloading (${s.percent ?? 0} %). Please try again when it has finished.`;
  if (s.state === 'failed') return 'The AI agent is not ready yet: the language model could not be downloaded. Your administrator can see why on the admin dashboard.';
  return 'The AI agent is not ready yet: the box is checking its language model. Please try again in a minute.';
}
