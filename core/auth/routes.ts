import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isEmail, newPasswordError } from '../../contract/rules.js';
import { SESSION_HINT_COOKIE } from '../../contract/session-hint.js';
import { ChangePasswordBody, EmailBody, LoginBody, ResetPasswordBody, ResetPasswordResponse, SignupBody } from '../../contract/schemas/auth.js';
import { MessageResponse } from '../../contract/schemas/shared.js';
import { MeResponse, UserMessageResponse, UserResponse } from '../../contract/schemas/users.js';
import { checkSignup } from '../accounts/signup-rules.js';
import { findUserByEmail, findUserById, insertUser, toApiUser, updateUser } from '../accounts/users.js';
import { isUniqueViolation } from '../db/client.js';
import type { User } from '../db/schema.js';
import { badRequest, conflict, forbidden, unauthorized } from '../http/errors.js';
import type { App } from '../http/fastify-types.js';
import { PUBLIC } from '../http/access-guard.js';
import { actingUser, canSignIn, currentUser } from '../http/session-hook.js';
import { passwordResetMail } from '../mail/templates.js';
import { brand } from '../mail/brand.js';
import { counterName, failureCounter, routeLimit } from '../http/rate-limits.js';
import { loginThrottle } from './login-throttle.js';
import { burnPasswordCheck, hashPassword, verifyPassword } from './passwords.js';
import { consumeResetToken, invalidateResetTokens, issueResetToken, RESET_TOKEN_TTL_MS, resetTokenUser } from './reset-tokens.js';
import { createSession, deleteSession, revokeUserSessions, SESSION_COOKIE } from './sessions.js';
import { transaction } from '../db/transaction.js';

const STATUS_LOGIN_MESSAGES: Partial<Record<User['accountStatus'], string>> = {
  pending_approval:
    'Your sign-up request is awaiting review. We review all requests within 24 hours and will e-mail you when it is approved.',
  rejected: 'Your sign-up request was not approved. Please contact support if you think this is a mistake.',
  suspended: 'Your account has been suspended. Please contact support to restore access.',
};

const STAFF_CANNOT_SIGN_IN = "This sign-in is not in use any more. Ask the business owner to invite you again.";

export async function authRoutes(app: App): Promise<void> {
  const { database, mailer, config, now } = app.services;
  const db = database.db;
  /** The account really signed in: a staff member's own login, not the owner it acts for. */
  const signedInLogin = async (req: FastifyRequest): Promise<User> => {
    const acting = currentUser(req);
    if (!req.staff) return acting;
    const login = await findUserById(db, req.staff.loginUserId);
    if (!login) throw unauthorized();
    return login;
  };
  const login = loginThrottle(app);
  // Per login: a staff member's guesses are theirs, not their business owner's.
  const changeGuesses = failureCounter(app, 'changePasswordFailuresPerUser', (req) => `user:${req.staff?.loginUserId ?? req.user?.id}`);
  // Sign-up requests created from one address (a typo answered 400 does not count).
  const signupsFromIp = failureCounter(app, 'signupsPerIp', (req) => req.ip);
  const badResetTokens = failureCounter(app, 'resetFailuresPerIp', (req) => req.ip);
  const resetMails = app.createRateLimit({
    max: app.rateLimits.resetMailsPerAccount.max,
    timeWindow: app.rateLimits.resetMailsPerAccount.windowMs,
    keyGenerator: (req) => (req.body as { email: string }).email.trim().toLowerCase(),
    ...counterName('resetMailsPerAccount'),
  });
  // Reset mails go out after the answer; closing the server waits for them.
  const mailing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...mailing]);
  });

  const startSession = async (reply: FastifyReply, user: User) => {
    const s = await createSession(db, user.id, now());
    reply.setCookie(SESSION_COOKIE, s.id, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: config.secureCookies,
      expires: s.expiresAt,
    });
    // After the session cookie: the console's cheap "anyone signed in here?" check.
    reply.setCookie(SESSION_HINT_COOKIE, '1', { path: '/', httpOnly: false, sameSite: 'lax', secure: config.secureCookies, expires: s.expiresAt });
  };

  // Public: it is how the console learns who is signed in (its own 401 says no one). The console
  // asks only while the session hint cookie is there.
  app.get('/api/auth/me', { config: PUBLIC, schema: { response: { 200: MeResponse } } }, async (req) => {
    if (!req.user) throw unauthorized('Not signed in.');
    if (!req.staff) return { user: toApiUser(req.user) };
    const { staffId, name, view, businessName } = req.staff;
    return { user: toApiUser(await signedInLogin(req)), staff: { id: staffId, name, view, businessName } };
  });

  app.post('/api/auth/signup', { config: PUBLIC, schema: { body: SignupBody, response: { 201: UserMessageResponse } } }, async (req, reply) => {
    await signupsFromIp.check(req);
    const check = checkSignup({ ...req.body, addressLine2: req.body.addressLine2 ?? '' });
    if (!check.ok) throw badRequest(Object.values(check.errors)[0]!, check.errors);
    const s = check.value;
    if (await findUserByEmail(db, s.email)) {
      throw conflict('An account with this email already exists. Please log in instead.');
    }
    const passwordHash = await hashPassword(s.password);
    let user: User;
    try {
      user = (await insertUser(db, {
        email: s.email,
        passwordHash,
        role: 'customer',
        accountStatus: 'pending_approval',
        createdAt: now(),
        businessName: s.businessName,
        businessEmail: s.email,
        // Not the notification number: anyone can type any number here, so it is texted nothing
        // until confirmed by the code its approval sends (core/destinations/signup-phone.ts).
        phoneNumber: s.phone,
        industry: s.industry,
        weeklyCustomerCalls: s.weeklyCustomerCalls,
        addressLine1: s.addressLine1,
        addressLine2: s.addressLine2,
        city: s.city,
        postcode: s.postcode,
        country: s.country,
      }));
    } catch (e) {
      // Sign-ups with one e-mail at the same moment all pass the read above; the unique index decides.
      if (isUniqueViolation(e)) throw conflict('An account with this email already exists. Please log in instead.');
      throw e;
    }
    await signupsFromIp.failed(req); // counts requests made, not mistakes corrected
    req.log.info({ userId: user.id }, 'sign-up request received');
    // No session: a request gives no dashboard access until an admin approves it.
    return reply.status(201).send({
      user: toApiUser(user),
      message: 'Request submitted. We review all requests within 24 hours. Check your email for approval.',
    });
  });

  app.post('/api/auth/login', { config: PUBLIC, schema: { body: LoginBody, response: { 200: UserResponse } } }, async (req, reply) => {
    const email = req.body.email.trim().toLowerCase();
    const { password } = req.body;
    if (!email || !password) throw badRequest('Email and password are required');
    const attempt = await login.attempt(req, email);
    const user = await findUserByEmail(db, email);
    const ok = user ? await verifyPassword(user.passwordHash, password) : (await burnPasswordCheck(password), false);
    if (!user || !ok) {
      await attempt.failed();
      throw unauthorized('Invalid email or password.');
    }
    await attempt.succeeded();
    const fresh = (await findUserById(db, user.id))!;
    if (!canSignIn(fresh)) throw forbidden(STATUS_LOGIN_MESSAGES[fresh.accountStatus] ?? 'This account cannot sign in.');
    // A staff login signs in only while its member is current and its business may sign in.
    if (fresh.role === 'staff' && !(await actingUser(db, fresh, now()))) throw forbidden(STAFF_CANNOT_SIGN_IN);
    await startSession(reply, fresh);
    req.log.info({ userId: fresh.id }, 'signed in');
    return { user: toApiUser(fresh) };
  });

  app.post('/api/auth/logout', { config: PUBLIC, schema: { response: { 200: MessageResponse } } }, async (req, reply) => {
    const sid = req.cookies[SESSION_COOKIE];
    if (sid) await deleteSession(db, sid);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
    return { message: 'Logged out' };
  });

  app.post(
    '/api/auth/forgot-password',
    { schema: { body: EmailBody, response: { 200: MessageResponse } }, config: { ...PUBLIC, ...routeLimit(app.rateLimits.resetRequestsPerIp) } },
    async (req) => {
      const email = req.body.email.trim().toLowerCase();
      if (!isEmail(email)) throw badRequest('Please enter a valid email address');
      // The token and the mail are made after the answer, so a known address takes no longer
      // to answer than an unknown one; a failed send is logged for the operator.
      const job = (async () => {
        await nextTurn(); // after the answer has been written
        const user = await findUserByEmail(db, email);
        const allowance = await resetMails(req);
        if (!user || (!allowance.isAllowed && allowance.isExceeded)) return;
        const token = await issueResetToken(db, user.id, now());
        await mailer.send(passwordResetMail(brand(config), user.email, token, RESET_TOKEN_TTL_MS / 60000));
      })()
        .catch((err: unknown) => req.log.error({ err }, 'could not send the password reset e-mail'))
        .finally(() => mailing.delete(job));
      mailing.add(job);
      return { message: "If that email exists in our system, we've sent password reset instructions. Check your inbox!" };
    },
  );

  app.post('/api/auth/reset-password', { config: PUBLIC, schema: { body: ResetPasswordBody, response: { 200: ResetPasswordResponse } } }, async (req) => {
    const { token, newPassword, confirmPassword } = req.body;
    if (!token.trim()) throw badRequest('Invalid reset link. Please request a new password reset.');
    const problem = newPasswordError(newPassword, confirmPassword);
    if (problem) throw badRequest(problem, { [problem.includes('match') ? 'confirmPassword' : 'newPassword']: problem });
    // Claimed before the token is looked up, so tokens tried at once cannot all be looked up.
    const tokenTry = await badResetTokens.claim(req);
    const invalid = () => badRequest('This reset link is invalid or has expired. Please request a new password reset.');
    // The token first: a bogus one must not cost an argon2 run (it slowed real sign-ins).
    if ((await resetTokenUser(db, token.trim(), now())) === undefined) throw invalid();
    await tokenTry.giveBack();
    const passwordHash = await hashPassword(newPassword);
    // Used up only now, with the change, atomically: two requests with one token cannot both succeed.
    const user = await transaction(db, async () => {
      const id = await consumeResetToken(db, token.trim(), now());
      if (id === undefined) return undefined;
      const updated = await updateUser(db, id, { passwordHash });
      await revokeUserSessions(db, id);
      await invalidateResetTokens(db, id, now());
      return updated;
    });
    if (user === undefined) throw invalid();
    req.log.info({ userId: user.id }, 'password reset');
    // The login e-mail, so the console can open its login dialog filled in. The holder of the
    // token has just proved they read that mailbox, so it tells them nothing new.
    return { message: 'Password updated successfully! You can now login.', email: user?.email };
  });

  app.post('/api/auth/change-password', { schema: { body: ChangePasswordBody, response: { 200: MessageResponse } } }, async (req, reply) => {
    const user = await signedInLogin(req);
    const { currentPassword, newPassword, confirmPassword } = req.body;
    if (!currentPassword || !newPassword) throw badRequest('All fields are required');
    if (confirmPassword !== undefined && confirmPassword !== newPassword) throw badRequest('New passwords do not match');
    const problem = newPasswordError(newPassword);
    if (problem) throw badRequest(problem);
    // Claimed before the password is checked, so guesses sent at once cannot all be checked.
    const guess = await changeGuesses.claim(req);
    if (!(await verifyPassword(user.passwordHash, currentPassword))) throw badRequest('Current password is incorrect');
    await guess.giveBack();
    const passwordHash = await hashPassword(newPassword);
    await transaction(db, async () => {
      await updateUser(db, user.id, { passwordHash });
      await revokeUserSessions(db, user.id);
      await invalidateResetTokens(db, user.id, now());
    });
    // Every other device is signed out; this one continues on a fresh session.
    await startSession(reply, user);
    return { message: 'Password changed' };
  });
}

