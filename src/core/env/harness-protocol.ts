/** A Python value as the sandbox harness describes it: its type name and plain data. */
export interface DescribedValue {
  /** Python type name, e.g. `str`, `float`, `bool`, `dict`, `tuple`. */
  t: string;
  /** The value for str, bool, int, float and dict. */
  v?: unknown;
  /** `nan`, `inf` or `-inf` for non-finite numbers. */
  nonfinite?: string;
  /** Items of a tuple. */
  items?: DescribedValue[];
  /** A short repr for other types. */
  repr?: string;
}

/** Failure kinds the harness reports. */
export type HarnessFailureKind =
  | 'syntax'
  | 'import'
  | 'exec'
  | 'init'
  | 'no_class'
  | 'missing_method'
  | 'exception'
  | 'exit'
  | 'memory'
  | 'too_large'
  | 'bad_request';

/** A failed harness call. */
export interface HarnessFailure {
  ok: false;
  error: HarnessFailureKind;
  type?: string;
  msg?: string;
  line?: number | null;
  cls?: string;
  classes?: string[];
  missing?: string[];
  what?: string;
  size?: number;
  limit?: number;
}

/** Reply to `load`. */
export interface LoadReply {
  ok: true;
  id: number;
  cls: string;
  solution: boolean;
}

/** Reply to `reset`, `step` and `solution`. */
export interface ValueReply {
  ok: true;
  value: DescribedValue;
}

/** Reply to `syntax`. */
export type SyntaxReply = { ok: true } | { ok: false; line: number | null; msg: string };

const FAILURE_KINDS = new Set<string>([
  'syntax', 'import', 'exec', 'init', 'no_class', 'missing_method',
  'exception', 'exit', 'memory', 'too_large', 'bad_request',
]);

/** Error thrown when a harness reply is not what the protocol allows (a compromised or broken sandbox). */
export class HarnessProtocolError extends Error {
  override readonly name = 'HarnessProtocolError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optional(value: unknown, type: 'string' | 'number'): boolean {
  return value === undefined || value === null || typeof value === type;
}

function isDescribedValue(value: unknown, depth = 0): value is DescribedValue {
  if (!isRecord(value) || typeof value.t !== 'string' || depth > 1) return false;
  if (value.items !== undefined) {
    return Array.isArray(value.items) && value.items.every((item) => isDescribedValue(item, depth + 1));
  }
  return optional(value.nonfinite, 'string') && optional(value.repr, 'string');
}

function isFailure(value: Record<string, unknown>): boolean {
  return (
    typeof value.error === 'string' &&
    FAILURE_KINDS.has(value.error) &&
    optional(value.msg, 'string') &&
    optional(value.type, 'string') &&
    optional(value.line, 'number') &&
    optional(value.size, 'number')
  );
}

/** Parses and checks one harness reply; throws HarnessProtocolError on anything malformed. */
export function parseHarnessReply(text: unknown, maxChars: number): Record<string, unknown> {
  if (typeof text !== 'string') throw new HarnessProtocolError(`sandbox replied with a ${typeof text}, not JSON text`);
  if (text.length > maxChars) throw new HarnessProtocolError(`sandbox reply of ${text.length} characters exceeds ${maxChars}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HarnessProtocolError('sandbox reply is not valid JSON');
  }
  if (!isRecord(parsed) || typeof parsed.ok !== 'boolean') throw new HarnessProtocolError('sandbox reply has no boolean "ok"');
  if (parsed.ok === false && 'error' in parsed && !isFailure(parsed)) {
    throw new HarnessProtocolError('sandbox failure reply is malformed');
  }
  return parsed;
}

/** Narrows a parsed reply to a load reply or failure. */
export function asLoadReply(reply: Record<string, unknown>): LoadReply | HarnessFailure {
  if (reply.ok === false) return reply as unknown as HarnessFailure;
  if (typeof reply.id !== 'number' || typeof reply.cls !== 'string' || typeof reply.solution !== 'boolean') {
    throw new HarnessProtocolError('sandbox load reply is malformed');
  }
  return reply as unknown as LoadReply;
}

/** Narrows a parsed reply to a value reply or failure. */
export function asValueReply(reply: Record<string, unknown>): ValueReply | HarnessFailure {
  if (reply.ok === false) return reply as unknown as HarnessFailure;
  if (!isDescribedValue(reply.value)) throw new HarnessProtocolError('sandbox value reply is malformed');
  return reply as unknown as ValueReply;
}

/** Narrows a parsed reply to a syntax-check reply. */
export function asSyntaxReply(reply: Record<string, unknown>): SyntaxReply {
  if (reply.ok === true) return { ok: true };
  if (typeof reply.msg !== 'string' || !optional(reply.line, 'number')) {
    throw new HarnessProtocolError('sandbox syntax reply is malformed');
  }
  return { ok: false, line: (reply.line as number | null | undefined) ?? null, msg: reply.msg };
}

/** Narrows a parsed reply to a renew acknowledgement or failure. */
export function asRenewReply(reply: Record<string, unknown>): { ok: true } | HarnessFailure {
  if (reply.ok === false) return reply as unknown as HarnessFailure;
  if (reply.ok !== true) throw new HarnessProtocolError('sandbox renew reply is malformed');
  return { ok: true };
}
