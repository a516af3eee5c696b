/**
 * A cookie the console can read (the session cookie itself is httpOnly) saying a session was
 * started in this browser: set beside it with the same lifetime, cleared with it at logout. It
 * carries nothing secret and grants nothing. Without it the console knows it is signed out and
 * does not ask GET /api/auth/me, whose 401 a browser logs as a console error on every
 * signed-out page (issue 29).
 */
export const SESSION_HINT_COOKIE = 'signed_in';
