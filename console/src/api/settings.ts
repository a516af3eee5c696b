// The owner's settings save and the two previews on Notification Settings (greeting, agent).
import type { AgentPreviewRequest, AgentPreviewResult, AgentVoices, ApiUser, SettingsUpdate, VoicePreference } from '../../../contract/api';
import type { PreviewLine } from '../../../contract/languages';
import { apiGet, apiRequest, apiSendWav } from './client';

export const saveSettings = (body: SettingsUpdate) => apiRequest<{ user: ApiUser; message?: string }>('PATCH', '/api/user/settings', body);

export const previewGreeting = (body: { businessName: string | null; callGreeting: string | null; voice: VoicePreference }) =>
  apiRequest<{ text: string; audioUrl: string }>('POST', '/api/greeting/preview', body);

/** One of the agent's fixed lines in a caller language and voice (issue 42). */
export const previewLine = (body: { language: string; line: PreviewLine; voice?: VoicePreference; languageVoice?: string }) =>
  apiRequest<{ text: string; audioUrl: string }>('POST', '/api/agent/line-preview', body);

/** The voices this box has installed for each caller language but English, for the owner's voice pickers. */
export const getAgentVoices = () => apiGet<AgentVoices>('/api/agent/voices');

export const previewAgent = (body: AgentPreviewRequest) => apiRequest<AgentPreviewResult>('POST', '/api/agent/preview', body);

/** The owner's own recording of a greeting line (issue 42): replaces, or removes, that language's spoken line. */
export const greetingRecordingUrl = (language: string) => `/api/agent/greeting-recordings/${encodeURIComponent(language)}`;
export const putGreetingRecording = (language: string, wav: Blob) => apiSendWav<{ greetingRecordings: string[] }>('PUT', greetingRecordingUrl(language), wav);
export const deleteGreetingRecording = (language: string) => apiRequest<{ greetingRecordings: string[] }>('DELETE', greetingRecordingUrl(language));

/** The voicemail owner's own recording of their greeting (issue 57): callers hear it instead of the spoken greeting. */
export const voicemailGreetingRecordingUrl = '/api/voicemail/greeting-recording';
export const putVoicemailGreetingRecording = (wav: Blob) => apiSendWav<{ voicemailGreetingRecording: boolean }>('PUT', voicemailGreetingRecordingUrl, wav);
export const deleteVoicemailGreetingRecording = () => apiRequest<{ voicemailGreetingRecording: boolean }>('DELETE', voicemailGreetingRecordingUrl);
