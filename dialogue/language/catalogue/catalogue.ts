// The shape of one language's catalogue: every fixed line the agent says to a caller, as data a
// translator edits without reading code. `{name}` placeholders are filled by render.ts; the
// English catalogue (en.ts) says when each line is said. A language missing a line fails the
// typecheck (`satisfies Catalogue`), and catalogue.test.ts checks each line's placeholders and script.

type Lines<Key extends string> = Readonly<Record<Key, string>>;

export interface Catalogue {
  /** Said whole, as they are. */
  agent: Lines<
    | 'notAnswered'
    | 'human'
    | 'takeMessage'
    | 'urgentMessage'
    | 'afterTransfer'
    | 'messageTaken'
    | 'silencePrompt'
    | 'silenceGoodbye'
    | 'engineFailure'
    | 'voicemailThanks'
    | 'allBusy'
    | 'holding'
    | 'didNotCatch'
  >;
  /** The greeting ({business}, {disclosure}), its disclosure sentence, the goodbye ({business}) and the switch to this language. */
  call: Lines<'greetingNamed' | 'greeting' | 'disclosure' | 'goodbyeNamed' | 'goodbye' | 'switched'>;
  /** About a team member the caller asked for ({name}: the member's name). */
  person: Lines<'notAvailable' | 'handover'>;
  /** The booking walk's lines said whole. */
  booking: Lines<'request' | 'requestDetails' | 'askName' | 'askNumber' | 'badNumber' | 'whichTime' | 'taken' | 'startAgain' | 'nothingFree'>;
  /**
   * The booking walk's lines around what the diary gave: {booking} is `booking` filled with the
   * time ({when}, dates.ts) and the service's name ({service}); {times} and {services} are lists
   * joined with "or"; {name} is a team member's (issue 58) and {offers} their personCan sentences;
   * {role} a team's role word as the owner wrote it.
   */
  bookingSaid: Lines<'booking' | 'offerOne' | 'offerMany' | 'whichService' | 'readBack' | 'booked' | 'moved' | 'cancelled' | 'kept' | 'existing' | 'personCan' | 'offerPeople' | 'withPerson' | 'noRole'>;
  /**
   * A booking that needs a deposit (issue 59): {amount} is the deposit as the language says money
   * (booking-lines.ts), {hold} how long the time is held: holdHour for one hour, else the locale's
   * own "2 hours", "90 minutes" (Intl, which knows each language's plurals). The link comes by
   * text: no line asks for a card.
   */
  deposit: Lines<'held' | 'untextable' | 'unavailable' | 'cardLinkOnly' | 'anythingElse' | 'holdHour'>;
  /** How an "or" list is joined when the locale's own (Intl.ListFormat) is not what the project says. */
  orList?: Lines<'between' | 'last'>;
}
