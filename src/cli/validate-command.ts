import { readFile, stat } from 'node:fs/promises';
import { decodeUtf8 } from '../adapters/store/zip.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { DEFAULT_VALIDATION, validateEnvironment, validationForBudget } from '../core/env/validate-env.ts';
import { validationNonce } from '../adapters/validation-nonce.ts';
import { formatBytes, MAX_CODE_BYTES } from '../formats/import/import-limits.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { errorMessage } from '../core/error-message.ts';

/** One file's verdict as `validate --json` prints it. */
export interface FileVerdict {
  file: string;
  ok: boolean;
  stage: string | null;
  code: string | null;
  message: string | null;
  ms: number;
  className: string | null;
}

async function judge(file: string, runtime: SandboxRuntime, totalMs: number): Promise<FileVerdict> {
  const refuse = (code: string, message: string): FileVerdict => ({
    file,
    ok: false,
    stage: 'extract',
    code,
    message,
    ms: 0,
    className: null,
  });
  let bytes: Uint8Array;
  try {
    const size = (await stat(file)).size;
    if (size > MAX_CODE_BYTES)
      return refuse(
        'file_too_large',
        `Expected at most ${formatBytes(MAX_CODE_BYTES)} of code. Saw ${formatBytes(size)}. Fix: validate an environment of ordinary size.`,
      );
    bytes = new Uint8Array(await readFile(file));
  } catch (error) {
    const reason = errorMessage(error);
    return refuse('unreadable_file', `Expected a readable file. Saw ${reason}. Fix: check the path.`);
  }
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch {
    return refuse(
      'invalid_utf8',
      'Expected UTF-8 text. Saw bytes that are not valid UTF-8. Fix: save the file as UTF-8.',
    );
  }
  const options = { ...validationForBudget(totalMs), source: 'code' as const, nonce: validationNonce() };
  const report = await validateEnvironment(text, runtime, options);
  return {
    file,
    ok: report.ok,
    stage: report.stage,
    code: report.code,
    message: report.message,
    ms: report.ms,
    className: report.className,
  };
}

function formatText(verdict: FileVerdict): string {
  if (verdict.ok) return `valid    ${verdict.file} (${verdict.className}, ${verdict.ms} ms)`;
  return `INVALID  ${verdict.file}: ${verdict.stage}/${verdict.code} (${verdict.ms} ms)\n         ${verdict.message}`;
}

/** The flags of `spade validate`. */
export const VALIDATE_OPTIONS = {
  json: {
    type: 'boolean',
    help: 'one JSON object per file and line: {"file","ok","stage","code","message","ms","className"}',
  },
  'timeout-ms': {
    type: 'string',
    value: 'N',
    help: `the budget of the environment's own running time, in ms (default ${DEFAULT_VALIDATION.totalTimeoutMs}); each call may take 2/5 of it`,
  },
} as const satisfies OptionTable;

/** `validate <file.py>... [--json] [--timeout-ms N]`: judges each file as code, exactly as written (no reply extraction or brace repair); exit 0 all valid, 1 any invalid. */
export async function runValidate(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, VALIDATE_OPTIONS);
  if (positionals.length === 0) throw new UsageError('validate needs at least one file');
  const totalMs = integerOption(values['timeout-ms'], 'timeout-ms', DEFAULT_VALIDATION.totalTimeoutMs);
  if (totalMs === 0) throw new UsageError('--timeout-ms must be positive');
  const sandbox = runtime();
  let allValid = true;
  for (const file of positionals) {
    const verdict = await judge(file, sandbox, totalMs);
    allValid &&= verdict.ok;
    print(values.json ? JSON.stringify(verdict) : formatText(verdict));
  }
  return allValid ? 0 : 1;
}
