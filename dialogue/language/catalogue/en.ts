import type { Catalogue } from './catalogue.js';

// English: the lines every other catalogue translates. Fixed rather than generated: the
// disclosure and the admissions must be said the same way every time, whatever the model does.

export const en = {
  agent: {
    /** Said when the knowledge base does not cover the question. */
    notAnswered: "I'm sorry, I don't have that information. I can take a message so the team can get back to you. Would you like to leave one?",
    human: "I'm afraid I can't put you through to someone right now, but I can take a message and they'll get back to you. What would you like me to pass on?",
    takeMessage: 'Of course. Please go ahead with your message, and include your name.',
    /** Urgent, and nobody can be put through: the message goes to the owner straight away. */
    urgentMessage: "I understand it's urgent. Please tell me your name, your number and what has happened, and I'll pass it on straight away.",
    /** After the owner could not take a put-through call ("Sorry, they can't take your call right now" was said). */
    afterTransfer: "Can I take a message instead? Please tell me your name and what it's about, and they'll get back to you.",
    messageTaken: "Thank you, I'll pass that on. Is there anything else I can help with?",
    silencePrompt: 'Are you still there? How can I help?',
    silenceGoodbye: "I can't hear anything, so I'll end the call now. Please call back any time. Goodbye.",
    /** The language model failed or stalled mid-call: fall back to taking a voicemail (the tone follows), nothing is lost. */
    engineFailure:
      "I'm sorry, I'm having trouble answering questions right now. Please leave your name and message after the tone, and the team will get back to you.",
    voicemailThanks: 'Thank you. Your message has been recorded. Goodbye.',
    /** The engines serve all the conversations they can: said instead of the greeting, then the tone and voicemail. */
    allBusy: 'All our assistants are busy, please leave a message after the tone.',
    /** Said when the engines are slow to answer, so the caller never waits in silence (pbx/flows/agent/stall-rule.ts). */
    holding: 'Bear with me a moment.',
    didNotCatch: "Sorry, I didn't catch that. Could you say it again?",
  },
  call: {
    // Disclosure first: automated assistant and recording (issue 42's requirement).
    greetingNamed: "Hello, you've reached {business}. {disclosure} How can I help you today?",
    greeting: 'Hello, thank you for calling. {disclosure} How can I help you today?',
    /** Also said alone, after an owner's own recorded greeting, which nothing checks says it. */
    disclosure: "I'm an automated assistant, and this call is recorded.",
    goodbyeNamed: 'Thank you for calling {business}. Goodbye.',
    goodbye: 'Thank you for calling the business. Goodbye.',
    /** Said, in the language asked for, when a caller asks for it ("Do you speak Polish?"). */
    switched: "Of course, I'll speak English. How can I help?",
  },
  person: {
    /** The caller asked for a team member who cannot be put through now: the message is for them (issue 58). */
    notAvailable: "I'm afraid {name} isn't available right now. I can take a message for them: please tell me your name and what it's about.",
    /** Said once, when the owner takes the call over from the agent (issue 54); {name} is who takes it. */
    handover: "I'm putting you through to {name} now.",
  },
  booking: {
    /** The diary could not be asked, or the caller took none of the times: the owner confirms one. */
    request: "I'll ask them to confirm a time with you.",
    /** After `request`: the caller's next turn is taken as their message (their name, what it is about). */
    requestDetails: "Please tell me your name and anything they should know, and I'll pass it on.",
    askName: 'Can I take your name, please?',
    askNumber: "What's the best number for them to call you back on?",
    badNumber: "Sorry, I didn't get that number. Could you say it again, digit by digit?",
    whichTime: 'Sorry, which of those times would you like?',
    taken: 'Sorry, that time has just been taken.',
    startAgain: "No problem, let's find another time.",
    nothingFree: "I'm sorry, I can't find a free time for that.",
  },
  bookingSaid: {
    /** "Tuesday the 3rd of December at ten o'clock, boiler service". */
    booking: '{when}, {service}',
    /** At most three offered times, soonest first, as the desk ordered them. */
    offerOne: 'I can do {time}. Would that suit you?',
    offerMany: 'I can do {times}. Which would suit you?',
    whichService: 'Which would you like to book: {services}?',
    readBack: "So that's {booking}, for {name}, on {number}. Shall I book that?",
    booked: "You're booked in for {booking}. Is there anything else I can help with?",
    moved: "That's moved. You're now booked in for {booking}. Is there anything else I can help with?",
    cancelled: "That's cancelled: {booking}. Is there anything else I can help with?",
    kept: "Lovely, you're still booked in for {booking}. Is there anything else I can help with?",
    existing: "I can see you're booked in for {booking}. Would you like to keep it, move it, or cancel it?",
    /** Offers with more than the owner doing the service (issue 58): each person's times ("Tom can do …"), said in turn. */
    personCan: '{name} can do {times}.',
    /** The people's offers ({offers}: the personCan sentences), then the question. */
    offerPeople: '{offers} Which would suit you?',
    /** A booking with its person, when the business has more than the owner doing it. */
    withPerson: '{booking}, with {name}',
    /** The caller asked for a role nobody who does the service has ({role}: the team's word, "stylist"); the soonest times with anyone follow. */
    noRole: "We have no {role} who does that, so here are the soonest times with anyone.",
  },
  deposit: {
    /** The time is claimed and waits for its deposit (the pay link goes by text as this is said). */
    held: "That time is held for you for {hold}: it needs a {amount} deposit, and I'm texting you a link to pay it now.",
    /** A landline, withheld number or STOP: nothing is held, the owner is asked to confirm. */
    untextable: "That booking needs a {amount} deposit, paid by a link I send by text, and I can't text this number, so I'll ask the business to confirm the booking with you.",
    /** Stripe could not make the link in time: nothing is held, the owner is asked to confirm. */
    unavailable: "I can't hold that time just now, so I'll ask the business to confirm the booking with you.",
    /** A caller offering card details: never asked for, never repeated (PCI DSS). */
    cardLinkOnly: "I can't take card details on the phone; the text has a secure link.",
    anythingElse: 'Is there anything else I can help with?',
    holdHour: 'an hour',
  },
  // "A, B, or C", where en-GB's Intl.ListFormat says "A, B or C".
  orList: { between: ', ', last: ', or ' },
} as const satisfies Catalogue;

/**
 * Lines said in English only: the voicemail flow's (no caller language is known before the
 * caller speaks), the owner's briefing on a put-through, and lines no catalogue translates yet
 * (putting a caller through, the gas safety advice). The modules in dialogue/spoken/ say them.
 */
export const englishOnly = {
  voicemail: {
    // SPEC.md §2 Call Greeting: every version tells the caller the call is recorded (UK practice).
    genericGreeting:
      "Thank you for calling. We can't take your call right now. For quality purposes, this call is being recorded. Please leave your name, number and message after the tone.",
    businessGreeting: "You've reached {business}. For quality purposes, this call is being recorded. Please leave your name and message after the tone.",
    /** Said after the owner's own recorded greeting when the spoken one it replaces tells the caller the call is recorded (issue 57). */
    recordingNotice: 'For quality purposes, this call is being recorded.',
    thankYou: 'Thank you. Your message has been recorded. Goodbye.',
    noMessageGoodbye: "Sorry, we didn't hear a message. Please call again. Goodbye.",
    notInService: "We're sorry. The number you have called is not in service. Please check the number and try again. Goodbye.",
    /** The business exists but its account cannot take calls (the call is logged as missed): {thanks} is `thanksNamed` or `thanks`. */
    thanksNamed: 'Thank you for calling {business}.',
    thanks: 'Thank you for calling.',
    pendingApproval: '{thanks} This line is not taking calls yet. Please try again later. Goodbye.',
    unavailable: "{thanks} We're unable to take your call at the moment. Please try again later. Goodbye.",
    /** A caller on the owner's block list. */
    refused: "Sorry, we can't take your call. Goodbye.",
    /** A withheld number, when the owner refuses them. */
    withheldRefused: "Sorry, we don't take calls from withheld numbers. Please call again without withholding your number. Goodbye.",
  },
  /** The voicemail greeting's team menu (issue 58): {choices} is `menuChoice` for each person, joined by ", ". */
  teamMenu: {
    menu: 'To speak to someone, press {choices}.',
    menuChoice: '{digit} for {name}',
    /** The caller pressed the key of someone outside their hours. */
    notWorking: "{name} isn't working right now.",
    leaveMessageFor: 'Please leave a message for {name} after the tone.',
  },
  transfer: {
    /** The caller, before the owner's phone rings. */
    puttingThrough: 'Let me try to put you through.',
    /** The caller, when the owner does not take the call. */
    cannotTakeCallNow: "Sorry, they can't take your call right now.",
    /** The owner, once more, when no key came after the briefing. */
    pressAKey: 'Press 1 to take the call, or 2 for voicemail.',
    /** The owner's briefing when they pick up: "Call for Hale Plumbing from 0 7 9 1 1, 1 2 3, 4 5 6. They said: ...". */
    briefingNamed: 'Call for {business} from {number}.',
    briefing: 'Call from {number}.',
    briefingAbout: 'They said: {about}.',
    briefingKeys: 'Press 1 to take it, or 2 for voicemail.',
    /** Said for the caller's number when it was withheld. */
    withheldNumber: 'a withheld number',
    /** "Test transfer" in the console: the owner hears these around a sample briefing. */
    testIntro: 'This is a test call from your answering service. When a caller asks for you, you will hear this:',
    testDone: 'That is all: calls can be put through to you. Goodbye.',
    testCallerWords: 'My boiler is leaking, can someone come today?',
  },
  /** The National Gas Emergency Service advice, read digit by digit. */
  gasSafety: [
    'If you can smell gas, please act now.',
    "Open doors and windows, don't use light switches or anything electrical, don't smoke or use a naked flame, and turn the gas off at the meter if you can.",
    'Leave the building and call the National Gas Emergency number: 0 8 0 0, 1 1 1, 9 9 9.',
    'In Northern Ireland, call 0 8 0 0, 0 0 2, 0 0 1.',
  ],
} as const;
