import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { errorMessage } from '../core/error-message.ts';
import { parseCommandArgs, UsageError } from './args.ts';
import { COMMANDS, type Command } from './commands.ts';
import { commandHelp, optionsOf, overviewHelp, usageHint } from './help.ts';
import { terminalSafe } from './terminal-text.ts';

/** The version of SPADE Lab, from its package.json. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}

/** The help `spade --help` prints: every command with its summary. */
export const overview = (): string => overviewHelp(COMMANDS, packageVersion());

/** Where one command line's output goes, and the sandbox it may start. */
export interface CliIo {
  /** The sandbox runtime, started on first use (commands that run no Python never call it). */
  runtime: () => SandboxRuntime;
  /** Starts the sandbox's interpreters booting without waiting; called once a command that runs Python has parsed its arguments. */
  startSandbox?: () => void;
  /** Writes one line of standard output. */
  out(line: string): void;
  /** Writes text to standard error. */
  err(text: string): void;
}

/** True when the arguments ask for help (`--help` or `-h` as a flag, not as a flag's value). */
function asksForHelp(argv: string[], command: Command): boolean {
  const options = { ...optionsOf(command), help: { type: 'boolean' as const, short: 'h' } };
  const { tokens } = parseArgs({ args: argv, options, allowPositionals: true, strict: false, tokens: true });
  return tokens.some((token) => token.kind === 'option' && token.name === 'help');
}

/**
 * Runs one `spade` command line and returns its exit code: 0 done, 1 failed, 2 bad usage. Help
 * (`--help`, `-h`, `help [COMMAND]`) and the version (`--version`, `-V`) go to standard output. A
 * command's arguments are parsed, and an unknown flag refused, before its sandbox starts.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  const out = (line: string) => io.out(terminalSafe(line));
  const err = (text: string) => io.err(terminalSafe(text));
  if (name === undefined) {
    err(`${overview()}\n`);
    return 2;
  }
  if (name === '--version' || name === '-V') {
    out(`spade-lab ${packageVersion()}`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const about = rest[0] === undefined ? undefined : Object.hasOwn(COMMANDS, rest[0]) ? rest[0] : null;
    if (about === null) {
      err(`unknown command: ${rest[0]}; expected one of ${Object.keys(COMMANDS).join(', ')}\n${usageHint()}\n`);
      return 2;
    }
    out(about === undefined ? overview() : commandHelp(about, COMMANDS[about]!));
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    err(
      `unknown ${name.startsWith('-') ? 'flag' : 'command'}: ${name}; expected one of ${Object.keys(COMMANDS).join(', ')}\n${usageHint()}\n`,
    );
    return 2;
  }
  const command = COMMANDS[name]!;
  if (asksForHelp(rest, command)) {
    out(commandHelp(name, command));
    return 0;
  }
  try {
    parseCommandArgs(rest, optionsOf(command));
    if (command.python) io.startSandbox?.();
    return await command.run(rest, io.runtime, out, (line) => err(line + '\n'));
  } catch (error) {
    if (error instanceof UsageError) {
      err(`${error.message}\n${usageHint(name)}\n`);
      return 2;
    }
    err(`spade: ${errorMessage(error)}\n`);
    return 1;
  }
}

/** A sandbox runtime the command line can start early and must close at exit. */
export interface ClosableSandbox extends SandboxRuntime {
  /** Starts booting interpreters without waiting. */
  start(): void;
  /** Stops every interpreter, booting or not, without waiting for any. */
  close(): Promise<void>;
}

/** Runs one command line with a sandbox made on first need (booting as a Python command begins) and closed when it ends; returns the exit code. */
export async function runCliWithSandbox(
  argv: string[],
  createRuntime: () => ClosableSandbox,
  out: CliIo['out'],
  err: CliIo['err'],
): Promise<number> {
  let runtime: ClosableSandbox | null = null;
  const open = () => (runtime ??= createRuntime());
  try {
    return await runCli(argv, { runtime: open, startSandbox: () => open().start(), out, err });
  } finally {
    await (runtime as ClosableSandbox | null)?.close();
  }
}
