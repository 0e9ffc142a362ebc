/**
 * The text of whatever was thrown, never "undefined" or "[object Object]": an Error's message (its
 * name when the message is empty), a string as it is, another object's own `message`, else its JSON
 * when short, else what it is.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error || 'an error with an empty message';
  if (error === undefined || error === null) return `an error with no description (${String(error)} was thrown)`;
  return typeof error === 'object' ? objectMessage(error) : String(error);
}

const MAX_JSON_CHARS = 300;

// A thrown object that is not an Error (a library's error shape, an event): read defensively, as
// its getters or its JSON may throw.
function objectMessage(error: object): string {
  try {
    const message: unknown = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
    const json = shortJson(error);
    if (json !== null) return json;
    const name: unknown = (error as { constructor?: { name?: unknown } }).constructor?.name;
    return `a thrown ${typeof name === 'string' && name !== '' ? name : 'object'} with no message`;
  } catch {
    return 'a thrown object that could not be read';
  }
}

// The object's JSON when it says something and is short; null otherwise (a cycle, a BigInt, `{}`).
function shortJson(value: object): string | null {
  try {
    const json = JSON.stringify(value);
    return typeof json === 'string' && json !== '{}' && json.length <= MAX_JSON_CHARS ? json : null;
  } catch {
    return null;
  }
}
