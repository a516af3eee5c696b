import type { ComponentProps } from 'react';

/**
 * Every sound the console plays is audio only (a call, a greeting, a voice sample, the agent's
 * reply, the owner's live line) and its words stand beside it as text where there are any (the
 * transcript, "Callers hear: …", the reply); a <track> of captions is for video, and a live call
 * has no file to caption. So the caption rule is set aside here, once, for all of them.
 */
export function AudioClip(props: ComponentProps<'audio'>) {
  // eslint-disable-next-line jsx-a11y-x/media-has-caption -- audio only, its words shown as text beside it (see above)
  return <audio {...props} />;
}
