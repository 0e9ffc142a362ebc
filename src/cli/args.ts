import { parseArgs, type ParseArgsConfig } from 'node:util';
import { errorMessage } from '../core/error-message.ts';

/** A command-line mistake: printed with a pointer to the usage text, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Parses `argv` with node:util's parseArgs, turning its errors into UsageError. */
export function parseCommandArgs(argv: string[], options: NonNullable<ParseArgsConfig['options']>) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(errorMessage(error));
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
  if (typeof value !== 'string' || !/^\d+(\.\d+)?$/.test(value)) throw new UsageError(`--${name} needs a non-negative number, got ${JSON.stringify(value)}`);
  return Number(value);
}
