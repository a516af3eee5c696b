// What a screen shows for a failed call: the server's "message" field, else the screen's fallback (SPEC.md §8).

interface WithBody {
  bodyText?: unknown;
}

/** The `message` of a JSON error body, or undefined when there is none. */
export function serverMessage(error: unknown): string | undefined {
  const text = (error as WithBody | null)?.bodyText;
  if (typeof text !== 'string' || !text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const message = (parsed as { message?: unknown } | null)?.message;
    return typeof message === 'string' && message.trim() ? message : undefined;
  } catch {
    return undefined;
  }
}

/** A 400's `errors` (field → message), the fields the server refused; empty when there are none. */
export function fieldErrors(error: unknown): Record<string, string> {
  const text = (error as WithBody | null)?.bodyText;
  if (typeof text !== 'string' || !text) return {};
  try {
    const errors = (JSON.parse(text) as { errors?: unknown } | null)?.errors;
    if (!errors || typeof errors !== 'object') return {};
    return Object.fromEntries(Object.entries(errors).filter((e): e is [string, string] => typeof e[1] === 'string'));
  } catch {
    return {};
  }
}

export function messageOr(error: unknown, fallback: string): string {
  return serverMessage(error) ?? fallback;
}
