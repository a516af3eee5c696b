// SLOT: the "try the agent" panel of Notification Settings. Another engineer fills this in;
// it renders nothing until then, and NotificationSettings already places it below the knowledge base.
export default function AgentTryIt(_props: { aiMode: 'voicemail' | 'agent' }) {
  return null;
}
