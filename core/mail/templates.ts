// Account e-mails: plain UK English, one function per message, no I/O.

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** An HTML alternative to `text` (call e-mails); account e-mails are plain text only. */
  html?: string;
}

export interface Brand {
  productName: string;
  publicUrl: string;
  supportName: string;
  supportEmail: string;
}

const signOff = (b: Brand) =>
  `\nIf you have any questions, reply to this e-mail or write to ${b.supportName} at ${b.supportEmail}.\n\nThe ${b.productName} team\n`;

export function approvalMail(b: Brand, to: string, businessName: string | null, trialEnds: Date): MailMessage {
  const ends = trialEnds.toLocaleDateString('en-GB', { timeZone: 'Europe/London', day: 'numeric', month: 'long', year: 'numeric' });
  return {
    to,
    subject: `Your ${b.productName} account is approved`,
    text:
      `Hello${businessName ? ` ${businessName}` : ''},\n\n` +
      `Good news: your free trial request has been approved and your account is ready.\n\n` +
      `Your 7-day free trial runs until ${ends}. No credit card is needed; after the trial the Professional Plan is £39/month and you can cancel anytime.\n\n` +
      `Log in at ${b.publicUrl}/ with the e-mail address you signed up with, then get your number under Phone Numbers and set up call forwarding.\n` +
      signOff(b),
  };
}

export function rejectionMail(b: Brand, to: string, businessName: string | null): MailMessage {
  return {
    to,
    subject: `Your ${b.productName} sign-up request`,
    text:
      `Hello${businessName ? ` ${businessName}` : ''},\n\n` +
      `Thank you for your interest in ${b.productName}. We have reviewed your free trial request and are unable to approve it at the moment.\n\n` +
      `We currently accept UK businesses only. If you think this decision is a mistake, please get in touch and we will look at it again.\n` +
      signOff(b),
  };
}

/** A staff member's invitation (issue 58): the business that invited them, and the link that sets their password (a reset token). */
export function staffInviteMail(b: Brand, to: string, memberName: string, businessName: string | null, token: string, validDays: number): MailMessage {
  const business = businessName ?? 'A business';
  return {
    to,
    subject: `${business} has invited you to ${b.productName}`,
    text:
      `Hello ${memberName},\n\n` +
      `${business} has invited you to see its calls on ${b.productName}.\n\n` +
      `To set your password, open this link within ${validDays} days:\n${b.publicUrl}/reset-password/${token}\n\n` +
      `Then log in at ${b.publicUrl}/ with this e-mail address. If you were not expecting this, you can ignore this e-mail.\n` +
      signOff(b),
  };
}

export function passwordResetMail(b: Brand, to: string, token: string, validMinutes: number): MailMessage {
  return {
    to,
    subject: `Reset your ${b.productName} password`,
    text:
      `Hello,\n\n` +
      `We received a request to reset the password for your ${b.productName} account.\n\n` +
      `To choose a new password, open this link within ${validMinutes} minutes:\n${b.publicUrl}/reset-password/${token}\n\n` +
      `The link works once. If you did not ask for this, you can ignore this e-mail: your password stays as it is.\n` +
      signOff(b),
  };
}
