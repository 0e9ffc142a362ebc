import { parseArgs } from 'node:util';
import { errorMessage } from '../core/error-message.ts';

/** A command-line mistake: printed with a pointer to the command's help, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** One flag of a command: parseArgs' type, the name of its value in the help (string flags), and its one line of help. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The value's name in the help, e.g. `DIR`; string flags only. */
  value?: string;
  /** What the flag does, one line. */
  help: string;
}

/** A command's flags by name (without the dashes), in the order its help lists them. */
export type OptionTable = Record<string, OptionSpec>;

/** Parses `argv` with node:util's parseArgs against `options`, turning its errors into UsageError (an unknown flag named as such). */
export function parseCommandArgs(argv: string[], options: OptionTable) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    const unknown = /^Unknown option '([^']+)'/.exec(errorMessage(error));
    throw new UsageError(unknown ? `unknown flag ${unknown[1]}` : errorMessage(error));
  }
}

/** Reads a non-negative integer option, or the fallback when absent. */
export function integerOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) {
    throw new UsageError(`--${name} needs a non-negative integer, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** Reads a non-negative number option (a decimal fraction allowed), or the fallback when absent. */
export function numberOption(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value))
    throw new UsageError(`--${name} needs a non-negative number, got ${JSON.stringify(value)}`);
  return Number(value);
}
