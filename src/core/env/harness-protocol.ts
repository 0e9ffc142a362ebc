import { measurePlainData } from './plain-data.ts';
import { INFO_MAX_DEPTH, MESSAGE_CHARS, NAME_CHARS, REPR_CHARS } from './sandbox-limits.ts';

/** Kind of a Python value, decided by the host from the harness's exact-type tag (never from a type name). */
export type ValueKind = 'str' | 'bool' | 'int' | 'float' | 'dict' | 'tuple' | 'NoneType' | 'other';

/** A Python value as the host decoded it from the harness's private encoding. */
export interface DescribedValue {
  /** What the value really is: `other` for any class, whatever its name. */
  t: ValueKind;
  /** The value for str, bool, int, float and dict. */
  v?: unknown;
  /** `nan`, `inf` or `-inf` for non-finite numbers. */
  nonfinite?: string;
  /** Items of a tuple. */
  items?: DescribedValue[];
  /** A short repr for other types. */
  repr?: string;
  /** The class name the sandbox reported for other types (shown in messages only). */
  name?: string;
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

/** Reply to `load` and `renew`. */
export interface LoadReply {
  ok: true;
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
  'syntax',
  'import',
  'exec',
  'init',
  'no_class',
  'missing_method',
  'exception',
  'exit',
  'memory',
  'too_large',
  'bad_request',
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

const NONFINITE = new Set(['nan', 'inf', '-inf']);

/** Length of a JS string in Python characters (code points), as the sandbox's limits count. */
export function pythonLength(text: string): number {
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit < 0xdc00) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next < 0xe000) {
        pairs += 1;
        i += 1;
      }
    }
  }
  return text.length - pairs;
}

/** A string the host re-measured and found over the limit. */
class Oversize extends Error {
  constructor(
    readonly what: string,
    readonly size: number,
  ) {
    super(what);
  }
}

function decodeNumber(kind: 'int' | 'float', raw: unknown[]): DescribedValue {
  const value = raw[1];
  if (typeof value === 'number' && Number.isFinite(value)) return { t: kind, v: value };
  if (typeof value === 'string' && NONFINITE.has(value)) return { t: kind, nonfinite: value };
  throw new HarnessProtocolError(`sandbox sent a malformed ${kind}`);
}

// Decodes one tagged value: ["s", text], ["b", flag], ["i"|"f", number], ["d", data], ["n"], ["o", name, repr].
function decodeOne(raw: unknown, what: string, maxChars: number): DescribedValue {
  if (!Array.isArray(raw) || typeof raw[0] !== 'string')
    throw new HarnessProtocolError('sandbox value is not a tagged array');
  switch (raw[0]) {
    case 's': {
      if (typeof raw[1] !== 'string') throw new HarnessProtocolError('sandbox sent a malformed str');
      const size = pythonLength(raw[1]);
      if (size > maxChars) throw new Oversize(what, size);
      return { t: 'str', v: raw[1] };
    }
    case 'b':
      if (typeof raw[1] !== 'boolean') throw new HarnessProtocolError('sandbox sent a malformed bool');
      return { t: 'bool', v: raw[1] };
    case 'i':
      return decodeNumber('int', raw);
    case 'f':
      return decodeNumber('float', raw);
    case 'd': {
      if (!isRecord(raw[1])) throw new HarnessProtocolError('sandbox sent a malformed dict');
      const measured = measurePlainData(raw[1], INFO_MAX_DEPTH, maxChars);
      if (!measured.ok)
        throw new HarnessProtocolError(`sandbox sent a dict the harness cannot send: ${measured.problem}`);
      if (measured.size > maxChars) throw new Oversize(what, measured.size);
      return { t: 'dict', v: raw[1] };
    }
    case 'n':
      return { t: 'NoneType' };
    case 'o':
      if (typeof raw[1] !== 'string' || (raw[2] !== undefined && typeof raw[2] !== 'string'))
        throw new HarnessProtocolError('sandbox sent a malformed other value');
      return { t: 'other', name: raw[1].slice(0, NAME_CHARS), repr: (raw[2] ?? '').slice(0, REPR_CHARS) };
    default:
      throw new HarnessProtocolError(
        `sandbox sent an unknown value tag ${JSON.stringify(String(raw[0]).slice(0, 20))}`,
      );
  }
}

function decodeValue(raw: unknown, names: readonly string[], maxChars: number): DescribedValue {
  if (Array.isArray(raw) && raw[0] === 't') {
    if (!Array.isArray(raw[1])) throw new HarnessProtocolError('sandbox sent a malformed tuple');
    return { t: 'tuple', items: raw[1].map((item, i) => decodeOne(item, names[i] ?? `item ${i}`, maxChars)) };
  }
  return decodeOne(raw, names[0] ?? 'value', maxChars);
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
  if (text.length > maxChars)
    throw new HarnessProtocolError(`sandbox reply of ${text.length} characters exceeds ${maxChars}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HarnessProtocolError('sandbox reply is not valid JSON');
  }
  if (!isRecord(parsed) || typeof parsed.ok !== 'boolean')
    throw new HarnessProtocolError('sandbox reply has no boolean "ok"');
  if (parsed.ok === false && 'error' in parsed && !isFailure(parsed)) {
    throw new HarnessProtocolError('sandbox failure reply is malformed');
  }
  return parsed;
}

// Never trusts the sandbox's failure fields: keeps only the known ones, of their types, cut to size.
function asFailure(reply: Record<string, unknown>): HarnessFailure {
  const cut = (value: unknown, chars: number) => (typeof value === 'string' ? value.slice(0, chars) : undefined);
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
  const names = (value: unknown, most: number, chars: number) =>
    Array.isArray(value)
      ? value.slice(0, most).flatMap((item) => (typeof item === 'string' ? [item.slice(0, chars)] : []))
      : undefined;
  return {
    ok: false,
    error: reply.error as HarnessFailureKind,
    type: cut(reply.type, NAME_CHARS),
    msg: cut(reply.msg, MESSAGE_CHARS),
    line: count(reply.line) ?? null,
    cls: cut(reply.cls, NAME_CHARS),
    what: cut(reply.what, NAME_CHARS),
    size: count(reply.size),
    limit: count(reply.limit),
    classes: names(reply.classes, 20, NAME_CHARS),
    missing: names(reply.missing, 2, 20),
  };
}

/** Narrows a parsed reply to a load (or renew) reply or failure. */
export function asLoadReply(reply: Record<string, unknown>): LoadReply | HarnessFailure {
  if (reply.ok === false) return asFailure(reply);
  if (typeof reply.cls !== 'string' || typeof reply.solution !== 'boolean') {
    throw new HarnessProtocolError('sandbox load reply is malformed');
  }
  return { ok: true, cls: reply.cls.slice(0, NAME_CHARS), solution: reply.solution };
}

/**
 * Decodes a value reply from the private encoding, naming the parts (`observation`, `info`, ...)
 * for size errors; re-measures every string against `maxChars` itself (in Python characters).
 */
export function asValueReply(
  reply: Record<string, unknown>,
  names: readonly string[],
  maxChars: number,
): ValueReply | HarnessFailure {
  if (reply.ok === false) return asFailure(reply);
  try {
    return { ok: true, value: decodeValue(reply.value, names, maxChars) };
  } catch (error) {
    if (!(error instanceof Oversize)) throw error;
    return { ok: false, error: 'too_large', what: error.what, size: error.size, limit: maxChars };
  }
}

/** Narrows a parsed reply to a syntax-check reply. */
export function asSyntaxReply(reply: Record<string, unknown>): SyntaxReply {
  if (reply.ok === true) return { ok: true };
  if (typeof reply.msg !== 'string' || !optional(reply.line, 'number')) {
    throw new HarnessProtocolError('sandbox syntax reply is malformed');
  }
  return { ok: false, line: (reply.line as number | null | undefined) ?? null, msg: reply.msg };
}
