/**
 * Built-in sounds for when a prompt cannot be synthesised. The image ships no Asterisk
 * sound pack: these are made by deploy/asterisk/sounds.sh into its sounds/en folder
 * (test/pbx-real checks each one exists in the rendered sounds folders).
 */
export const FALLBACK_SOUNDS = {
  greeting: 'sound:appliance-greeting',
  goodbye: 'sound:appliance-goodbye',
  notInService: 'sound:appliance-not-in-service',
  puttingThrough: 'sound:appliance-putting-through',
  cannotTakeCallNow: 'sound:appliance-cannot-take-call',
  refused: 'sound:appliance-refused',
  withheldRefused: 'sound:appliance-withheld-refused',
  /** The owner's briefing without the caller's details. */
  briefing: 'sound:appliance-briefing',
} as const;

/** The tone before recording; also made by deploy/asterisk/sounds.sh. */
export const BEEP = 'sound:beep';
