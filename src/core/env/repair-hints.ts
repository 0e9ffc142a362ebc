import { envError, type EnvError, type EnvErrorCode } from './env-error.ts';
import { stripThink } from './extract-code.ts';

// A module-level class statement: its name and the text of its bases.
const CLASS_LINE = /^class\s+([A-Za-z_]\w*)\s*(?:\(([^)]*)\))?\s*:/gm;
const FENCE_LINE = /^[ \t]*```/m;
const BLOCK = /```[^\n`]*\r?\n([\s\S]*?)(?:\r?\n)?```/g;
const BLOCK_TEST = new RegExp(BLOCK.source);
// Names the sandbox never takes for the environment (it injects them itself).
const INJECTED = new Set(['Env', 'ToolUseBaseEnv']);

interface ClassLine {
  name: string;
  bases: string[];
}

function classLines(source: string): ClassLine[] {
  return [...source.matchAll(CLASS_LINE)].map((m) => ({
    name: m[1]!,
    bases: (m[2] ?? '').split(',').map((b) => b.trim().split('.').pop()!),
  }));
}

/** The classes the sandbox may take as the environment, in the order it looks at them (definition order). */
function envClasses(source: string): ClassLine[] {
  return classLines(source).filter((c) => c.name.endsWith('Env') && !INJECTED.has(c.name));
}

// Failures that mean the code could not be read at all.
const UNREAD: ReadonlySet<EnvErrorCode> = new Set(['syntax_error', 'no_code', 'no_code_block']);

/**
 * A reply whose code could not be read that ends inside a fenced block (no closing fence) or inside
 * `<think>`, or that stopped at the token limit, was cut off: the fix is a shorter reply, not a
 * syntax correction. Null otherwise.
 */
export function cutOffError(reply: string, stoppedAtLimit: boolean, failure: EnvError): EnvError | null {
  if (!UNREAD.has(failure.code)) return null;
  const open = reply.lastIndexOf('<think>');
  const inThink = open >= 0 && reply.indexOf('</think>', open) < 0;
  const text = stripThink(reply);
  const fences = text.match(/^[ \t]*```/gm)?.length ?? 0;
  const inFence = fences % 2 === 1 && FENCE_LINE.test(text);
  // A reply stopped at the limit after a closed block has its code whole: its syntax error is real.
  const atLimit = stoppedAtLimit && !BLOCK_TEST.test(text);
  if (!inThink && !inFence && !atLimit) return null;
  const where = inThink
    ? 'inside its <think> block, before any code'
    : inFence
      ? 'inside its ```python block, with no closing ```'
      : 'before the code was complete';
  return envError('reply_cut_off', 'extract', {
    expected: 'a complete reply: the whole environment in one fenced python block, closed with ```',
    seen: `the reply was cut off ${where}${stoppedAtLimit ? ' (it reached the token limit)' : ''}`,
    fix: 'write a shorter environment (fewer comments, a smaller docstring, no long data tables) and think briefly, so the whole reply fits',
  });
}

/**
 * When the environment class is missing from the block that was run but another fenced block of the
 * reply has one, says so: the code was split over several blocks and only the first is run.
 */
export function splitBlocksError(reply: string, failure: EnvError): EnvError | null {
  if (failure.code !== 'no_env_class') return null;
  const blocks = [...stripThink(reply).matchAll(BLOCK)].map((m) => m[1]!);
  if (blocks.length < 2) return null;
  const at = blocks.findIndex((block) => envClasses(block).length > 0);
  if (at < 0) return null;
  const name = envClasses(blocks[at]!)[0]!.name;
  return envError('no_env_class', failure.stage, {
    expected: 'the whole environment in one fenced python block (only the first block is run)',
    seen: `${blocks.length} fenced blocks; the class ${name} is in block ${at + 1}, not in the block that was run`,
    fix: `reply with one \`\`\`python block holding everything: imports, helpers and the ${name} class`,
  });
}

// Failures that happen before a class is taken, or that say nothing about the class.
const BEFORE_CLASS: ReadonlySet<EnvErrorCode> = new Set([
  ...UNREAD,
  'reply_cut_off',
  'import_error',
  'module_exception',
  'no_env_class',
  'sandbox_crashed',
  'env_lost',
  'bad_harness_reply',
  'validation_timeout',
]);

/**
 * When validation failed on a class that another class ending in `Env` subclasses, the sandbox took
 * the base class (it takes the first class whose name ends in `Env`, as the reference does): the
 * fix is to rename the base, not to complete it.
 */
export function baseClassError(source: string, failure: EnvError): EnvError | null {
  if (BEFORE_CLASS.has(failure.code)) return null;
  const [chosen, ...rest] = envClasses(source);
  if (!chosen) return null;
  const child = rest.find((c) => c.bases.includes(chosen.name));
  if (!child) return null;
  const renamed = chosen.name.replace(/Env$/, '') || 'Base';
  return envError('env_class_is_base', failure.stage, {
    expected: `the sandbox to play ${child.name}`,
    seen: `it played ${chosen.name}, the first class whose name ends in Env (${child.name} subclasses it), and ${chosen.name} failed (${withoutFix(failure.message)})`,
    fix: `rename the base class so that its name does not end in Env (for example ${renamed === chosen.name ? 'GameBase' : renamed}), so ${child.name} is the only class ending in Env`,
  });
}

// "Expected A. Saw B. Fix: C." without its fix, whose advice is about the wrong class.
function withoutFix(message: string): string {
  const at = message.lastIndexOf('. Fix: ');
  return (at >= 0 ? message.slice(0, at) : message).replace(/^Expected /, 'expected ').replace('. Saw ', '; saw ');
}

/** The nondeterminism message: where two observations of the same seed first differ, with a little context on each side. */
export function firstDifference(
  a: string,
  b: string,
  context = 30,
): { at: number; line: number; first: string; second: string } {
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at += 1;
  const from = Math.max(0, at - context);
  const cut = (s: string) =>
    `${from > 0 ? '…' : ''}${s.slice(from, at + context)}${s.length > at + context ? '…' : ''}`;
  return { at, line: a.slice(0, at).split('\n').length, first: cut(a), second: cut(b) };
}
