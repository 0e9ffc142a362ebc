import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { UsageError } from './args.ts';
import { terminalSafe } from './terminal-text.ts';
import { runCompare } from './compare-command.ts';
import { configFlagUsage } from './config-flags.ts';
import { runEval } from './eval-command.ts';
import { runExport } from './export-command.ts';
import { runImport } from './import-command.ts';
import { runPlay } from './play-command.ts';
import { runRun } from './run-command.ts';
import { runSweep } from './sweep-command.ts';
import { runValidate } from './validate-command.ts';
import { runVerify } from './verify-command.ts';
import { errorMessage } from '../core/error-message.ts';

/** Words joined into lines of at most `width` characters, each starting with `indent`. */
function wrapped(words: string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of words) {
    const last = lines.length > 0 ? lines[lines.length - 1]! : null;
    if (last !== null && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(`${indent}${word}`);
  }
  return lines;
}

/** The usage text `spade` prints on bad usage and for help. */
export const USAGE = `usage: npm run --silent spade -- <command>

commands:
  validate <file.py>... [--json] [--timeout-ms N]   judge environments with SPADE's validator
  play <file.py> --seed N --actions 'a|b|c' [--json] [--max-turns N]
                                                    play actions and print the transcript
  run --model scripted:FILE|openai:URL#MODEL --out DIR [--resume | --replace] [--epochs N] [--preset tab|reference]
${wrapped(['[--corpus FILE.jsonl]', '[--eval builtin|FILE|DIR|DIR@N]', '[--context-window N]', '[--fixed-pool FILE|DIR|DIR@N]', ...configFlagUsage()], '      ', 92).join('\n')}
                                                    run SPADE epochs and write the run files
  eval --run DIR [--suite builtin|FILE|DIR|DIR@N] [--seeds N] [--no-playbook] [--model SPEC]
      [--context-window N] [--json]
                                                    evaluate a run's agent on a held-out suite
                                                    (a pool zip or folder, or a run directory's
                                                    pool, at epoch N or its last)
  compare DIR... [--json|--csv]                     the settings that differ and each run's final figures
  sweep --model SPEC --grid 'reward=blend,regret;memory=on,off' [--seeds 1,2,3] --epochs N --out DIR
      [run flags]                                   one run per grid cell and seed, then their comparison
  export --run DIR --format pool|rollouts|metrics|archive --out FILE
                                                    export a run directory
  import FILE|FOLDER --out DIR [--name NAME] [--as ID] [--replace] [--timeout-ms N]
                                                    import a pool, pool rows, run archive or corpus
  verify --run DIR [--json]                         recompute a run's returns, stats, rewards and advantages`;

/** What follows a specific usage error instead of the whole usage text. */
export const USAGE_HINT = 'see `npm run --silent spade -- help` for every command and its flags';

/** One command: its arguments, the sandbox it may start, where its lines go, and where warnings go when its output is machine-read. */
type Command = (argv: string[], runtime: () => SandboxRuntime, print: (line: string) => void, warn?: (line: string) => void) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  validate: runValidate,
  play: runPlay,
  run: runRun,
  eval: runEval,
  compare: runCompare,
  sweep: runSweep,
  export: runExport,
  import: runImport,
  verify: runVerify,
};

// Commands that run Python: their sandbox starts booting as the command begins, before it reads its input.
const PYTHON_COMMANDS: ReadonlySet<string> = new Set(['validate', 'play', 'run', 'eval', 'import', 'sweep']);

/** Where one command line's output goes, and the sandbox it may start. */
export interface CliIo {
  /** The sandbox runtime, started on first use (commands that run no Python never call it). */
  runtime: () => SandboxRuntime;
  /** Starts the sandbox's interpreters booting without waiting; called as a command that runs Python begins. */
  startSandbox?: () => void;
  /** Writes one line of standard output. */
  out(line: string): void;
  /** Writes text to standard error. */
  err(text: string): void;
}

/** Runs one `spade` command line and returns its exit code: 0 done, 1 failed, 2 bad usage. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  const out = (line: string) => io.out(terminalSafe(line));
  const err = (text: string) => io.err(terminalSafe(text));
  if (name === undefined || name === '--help' || name === 'help') {
    err(`${USAGE}\n`);
    return name === undefined ? 2 : 0;
  }
  if (!command) {
    err(`unknown command: ${name}; expected one of ${Object.keys(COMMANDS).join(', ')}\n${USAGE_HINT}\n`);
    return 2;
  }
  if (PYTHON_COMMANDS.has(name!)) io.startSandbox?.();
  try {
    return await command(rest, io.runtime, out, (line) => err(line + '\n'));
  } catch (error) {
    if (error instanceof UsageError) {
      err(`${error.message}\n${USAGE_HINT}\n`);
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
export async function runCliWithSandbox(argv: string[], createRuntime: () => ClosableSandbox, out: CliIo['out'], err: CliIo['err']): Promise<number> {
  let runtime: ClosableSandbox | null = null;
  const open = () => (runtime ??= createRuntime());
  try {
    return await runCli(argv, { runtime: open, startSandbox: () => open().start(), out, err });
  } finally {
    await (runtime as ClosableSandbox | null)?.close();
  }
}
