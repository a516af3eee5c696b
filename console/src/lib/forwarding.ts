// GSM call-forwarding codes (SPEC.md §9): these are the network's MMI codes, typed into the phone's dialler.

const CANCEL_ALL_CODE = '##002#';

export function forwardingCodes(number: string) {
  return {
    unanswered: `*61*${number}#`,
    busy: `*67*${number}#`,
    all: `*21*${number}#`,
    cancel: CANCEL_ALL_CODE,
  };
}
