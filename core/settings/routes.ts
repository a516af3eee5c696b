import { toE164 } from '../../contract/phone.js';
import { ENGLISH_NAMES, isLanguageCode, LANGUAGES, parseAllowList, storedAllowList } from '../../dialogue/language/languages.js';
import { greetingLanguagesProblem } from '../../dialogue/language/greeting-languages.js';
import { languageVoicesProblem } from '../../dialogue/language/language-voices.js';
import { isEmail } from '../../contract/rules.js';
import { chooseGreeting } from '../../dialogue/spoken/greeting.js';
import { normalisePromptText } from '../../models/tts/index.js';
import { ApiErrorSchema } from '../../contract/schemas/shared.js';
import { SettingsUpdateBody, UserMessageResponse } from '../../contract/schemas/users.js';
import { toApiUser, updateUser } from '../accounts/users.js';
import { cancelConfirmation } from '../destinations/pending.js';
import { codeSenderFor, sendDestinationCode } from '../destinations/send-code.js';
import type { User } from '../db/schema.js';
import { badRequest } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { failureCounter } from '../http/rate-limits.js';
import { currentUser } from '../http/session-hook.js';

/** The language lists' messages cover their items too ("/agentLanguages/3"). */
const listPath = (path: string) => ['/agentLanguages', '/greetingLanguages', '/languageVoices'].find((p) => path === p || path.startsWith(`${p}/`));

const SUMMARY_EMAIL_ERROR = 'Summary e-mail must be a valid e-mail address, e.g. owner@example.co.uk';

const blankToNull = (v: string | null | undefined) => (v === undefined ? undefined : v === null || !v.trim() ? null : v.trim());

const greetingLimitMessage = (wait: string) =>
  `You have changed your greeting (its words, business name or voice) too often. Nothing was saved: please wait ${wait} and save again.`;

/** Whether a save gives callers a different greeting: new words (greeting or business name) or a new voice. */
const greetingChanges = (before: User, after: Partial<User>) =>
  normalisePromptText(chooseGreeting(before)) !== normalisePromptText(chooseGreeting({ ...before, ...after })) || (after.voicePreference !== undefined && after.voicePreference !== before.voicePreference);

export async function settingsRoutes(app: App): Promise<void> {
  const { database } = app.services;
  // Counted per owner: every changed greeting is synthesised on the TTS engine all calls share.
  const greetingSaves = failureCounter(app, 'greetingChangesPerOwner', (req) => `owner:${req.user?.id}`);
  const codesSent = failureCounter(app, 'destinationCodesPerOwner', (req) => `owner:${req.user?.id}`);
  const codeSender = codeSenderFor(app.services);

  app.patch(
    '/api/user/settings',
    {
      schema: { body: SettingsUpdateBody, response: { 200: UserMessageResponse, 400: ApiErrorSchema } },
      // Clearer than Ajv's wording for the limits an owner can actually hit.
      errorHandler: (error, _req, reply) => {
        const path = error.validation?.[0]?.instancePath ?? '';
        const keyword = error.validation?.[0]?.keyword;
        const messages: Record<string, string> = {
          '/callGreeting': 'Custom greeting must be at most 1,000 characters',
          '/knowledgeBase': 'Knowledge base must be at most 50,000 characters',
          '/businessName': 'Business name must be at most 200 characters',
          '/aiMode': 'aiMode must be voicemail or agent',
          '/voicePreference': 'voicePreference must be female or male',
          '/agentLanguages': 'agentLanguages must be a list of at most 16 language codes, e.g. ["en", "pl", "cy"]',
          '/greetingLanguages': 'greetingLanguages must be a list of 1 to 8 language codes in the order they are spoken, e.g. ["en", "cy"]',
          '/languageVoices': 'languageVoices must map at most 16 language codes to a voice each, e.g. {"pl": "espeak-ng:pl+f3"}',
          '/callbackReminderHours': 'callbackReminderHours must be a whole number of hours from 1 to 168, or null for off',
          '/summaryEmail': SUMMARY_EMAIL_ERROR,
          '/lineType': 'lineType must be landline, virgin or mobile (or null to forget it)',
        };
        const msg =
          keyword === 'maxLength' || path === '/aiMode' || path === '/voicePreference' || path === '/callbackReminderHours' || path === '/lineType' || listPath(path) ? messages[listPath(path) ?? path] : undefined;
        if (error.validation && msg) return reply.status(400).send({ message: msg });
        throw error;
      },
    },
    async (req) => {
      const user = currentUser(req);
      const b = req.body;
      const changes: Partial<User> = {};
      const toConfirm: Array<{ kind: 'sms' | 'email'; destination: string }> = [];
      const name = blankToNull(b.businessName);
      if (name !== undefined) changes.businessName = name;
      const greeting = blankToNull(b.callGreeting);
      if (greeting !== undefined) changes.callGreeting = greeting;
      // The knowledge base keeps its blank lines: they separate Q:/A: entries.
      if (b.knowledgeBase !== undefined) changes.knowledgeBase = b.knowledgeBase?.trim() ? b.knowledgeBase : null;
      if (b.voicePreference !== undefined) changes.voicePreference = b.voicePreference;
      if (b.agentLanguages !== undefined) {
        const unknown = b.agentLanguages.filter((c) => !isLanguageCode(c));
        if (unknown.length) {
          const known = LANGUAGES.map((c) => `${c} (${ENGLISH_NAMES[c]})`).join(', ');
          throw badRequest(`agentLanguages: the agent does not speak ${unknown.map((c) => `"${c}"`).join(', ')}. Choose from ${known}.`, { agentLanguages: `Choose from ${known}` });
        }
        changes.agentLanguages = storedAllowList(b.agentLanguages);
      }
      if (b.greetingLanguages !== undefined) {
        // Checked against the caller languages this same save leaves ticked.
        const problem = greetingLanguagesProblem(b.greetingLanguages, parseAllowList(changes.agentLanguages !== undefined ? changes.agentLanguages : user.agentLanguages));
        if (problem) throw badRequest(problem, { greetingLanguages: problem });
        changes.greetingLanguages = b.greetingLanguages.join(',');
      }
      if (b.languageVoices !== undefined) {
        // Each voice one the box has installed for its language, a language this same save leaves ticked.
        const allowed = parseAllowList(changes.agentLanguages !== undefined ? changes.agentLanguages : user.agentLanguages);
        const problem = languageVoicesProblem(b.languageVoices, allowed, (l) => app.services.agentEngines.speech.voices?.(l) ?? []);
        if (problem) throw badRequest(`languageVoices: ${problem}`, { languageVoices: problem });
        changes.languageVoices = Object.keys(b.languageVoices).length ? b.languageVoices : null;
      }
      if (b.aiMode !== undefined) changes.aiMode = b.aiMode;
      if (b.callbackReminderHours !== undefined) changes.callbackReminderHours = b.callbackReminderHours;
      if (b.whatsappEnabled !== undefined) changes.whatsappEnabled = b.whatsappEnabled;
      if (b.smsEnabled !== undefined) changes.smsEnabled = b.smsEnabled;
      if (b.lineType !== undefined) changes.lineType = b.lineType;
      const number = blankToNull(b.notificationNumber);
      if (number !== undefined) {
        if (number === null) changes.notificationNumber = null;
        else {
          const e164 = toE164(number);
          if (!e164) {
            throw badRequest('Notification number must be a valid phone number with its country code, e.g. +447700900123', {
              notificationNumber: 'Include country code (e.g., +44 for UK)',
            });
          }
          // A new number takes effect once confirmed with the code texted to it (below).
          if (e164 !== user.notificationNumber) toConfirm.push({ kind: 'sms', destination: e164 });
        }
      }
      if (b.emailSummariesEnabled !== undefined) changes.emailSummariesEnabled = b.emailSummariesEnabled;
      if (b.weeklyDigestEnabled !== undefined) changes.weeklyDigestEnabled = b.weeklyDigestEnabled;
      const summaryEmail = blankToNull(b.summaryEmail);
      if (summaryEmail !== undefined) {
        if (summaryEmail !== null && !isEmail(summaryEmail)) throw badRequest(SUMMARY_EMAIL_ERROR, { summaryEmail: 'Enter an e-mail address like owner@example.co.uk' });
        const address = summaryEmail?.toLowerCase() ?? null;
        if (address === null) changes.summaryEmail = null;
        else if (address !== user.summaryEmail) toConfirm.push({ kind: 'email', destination: address });
      }
      const newGreeting = greetingChanges(user, changes);
      if (newGreeting) await greetingSaves.check(req, greetingLimitMessage);
      if (toConfirm.length) {
        await codesSent.check(req, (wait) => `Too many confirmation codes sent. Nothing was saved: please wait ${wait} and save again.`);
        for (const { kind, destination } of toConfirm) {
          if (await sendDestinationCode(codeSender, user.id, kind, destination, app.services.now())) await codesSent.failed(req);
        }
      }
      // Clearing a destination needs no code (summaries fall back to the account's own); it also drops any pending one.
      if (changes.notificationNumber === null) await cancelConfirmation(database.db, user.id, 'sms');
      if (changes.summaryEmail === null) await cancelConfirmation(database.db, user.id, 'email');
      const updated = Object.keys(changes).length ? (await updateUser(database.db, user.id, changes))! : user;
      if (newGreeting) await greetingSaves.failed(req);
      const before = newGreeting ? { callGreeting: user.callGreeting, businessName: user.businessName, voicePreference: user.voicePreference } : undefined;
      for (const listener of app.services.hooks.settingsChanged) listener(user.id, before);
      const sentTo = toConfirm.map((c) => c.destination).join(' and ');
      const message = sentTo ? `Settings saved. Enter the code we sent to ${sentTo} to start using it.` : 'Settings saved';
      return { user: toApiUser(updated), message };
    },
  );
}
