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
  },
  // "A, B, or C", where en-GB's Intl.ListFormat says "A, B or C".
  orList: { between: ', ', last: ', or ' },
} as const satisfies Catalogue;
