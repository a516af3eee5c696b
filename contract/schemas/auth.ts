// Sign-up, sign-in and passwords (core/auth/routes.ts).
import { Type } from 'typebox';

const MAX = 500; // generous upper bound for any single text field
const Str = (max = MAX) => Type.String({ maxLength: max });

export const SignupBody = Type.Object(
  {
    businessName: Str(200),
    businessEmail: Str(254),
    businessPhone: Str(40),
    password: Str(200),
    industry: Str(40),
    weeklyCustomerCalls: Str(20),
    addressLine1: Str(200),
    addressLine2: Type.Optional(Type.Union([Str(200), Type.Null()])),
    city: Str(100),
    postcode: Str(20),
    country: Type.Optional(Str(60)),
  },
  { additionalProperties: false },
);

export const LoginBody = Type.Object({ email: Str(254), password: Str(200) });
export const EmailBody = Type.Object({ email: Str(254) });
export const ResetPasswordBody = Type.Object({ token: Str(200), newPassword: Str(200), confirmPassword: Str(200) });
export const ChangePasswordBody = Type.Object({ currentPassword: Str(200), newPassword: Str(200), confirmPassword: Type.Optional(Str(200)) });

/** POST /api/auth/reset-password: the account's e-mail, so the console can fill the sign-in form. */
export const ResetPasswordResponse = Type.Object({ message: Type.String(), email: Type.Optional(Type.String()) });
