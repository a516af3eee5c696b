// A team member's landline confirmed by a call (issue 58 item 1) between the core and the PBX:
// the core's Team route makes the code and asks the PBX, through this, to ring the landline
// from the business's appliance number and read the code out (startPbx's, when it can call out).

export interface CodeCallRequest {
  /** The owner the call is placed for: their account, the toll-fraud rules and daily minutes decide whether it is. */
  userId: number;
  /** The landline, E.164. */
  to: string;
  /** The 6 digits to read out (only its hash is stored). */
  code: string;
}

/** Rings `to` and reads the code out; resolves once Asterisk has taken the call (or could not), the reading carries on alone. */
export type CodeCall = (c: CodeCallRequest) => Promise<CodeCallResult>;

export type CodeCallResult =
  | { kind: 'calling' }
  /** The business has no appliance number: the call shows it as its caller ID. */
  | { kind: 'no-phone-number' }
  | { kind: 'pbx-down' }
  /** The outbound rules refused it at the moment of dialling, or the trunk refused the call at once. */
  | { kind: 'not-placed' };
