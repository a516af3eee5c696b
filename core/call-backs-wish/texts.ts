// The text a caller gets when their CALL reply to the missed-call text is taken as a call-back
// wish (issue 56): short, one segment, and promising only what the box will do (the number it
// rings from is the one they texted).

export const CALL_REPLY_CONFIRMATION = "Thanks: we'll ring you back from this number.";
