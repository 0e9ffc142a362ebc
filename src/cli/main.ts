import { createNodeSandboxRuntime } from '../adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../adapters/sandbox/pyodide-runtime.ts';
import { UsageError } from './args.ts';
import { configFlagUsage } from './config-flags.ts';
import { runExport } from './export-command.ts';
import { runImport } from './import-command.ts';
import { runPlay } from './play-command.ts';
import { runRun } from './run-command.ts';
import { runValidate } from './validate-command.ts';
import { runVerify } from './verify-command.ts';

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

const USAGE = `usage: npm run --silent spade -- <command>

commands:
  validate <file.py>... [--json] [--timeout-ms N]   judge environments with SPADE's validator
  play <file.py> --seed N --actions 'a|b|c' [--json] [--max-turns N]
                                                    play actions and print the transcript
  run --model scripted:FILE|openai:URL#MODEL --out DIR [--epochs N] [--preset tab|reference]
${wrapped(['[--corpus FILE.jsonl]', ...configFlagUsage()], '      ', 92).join('\n')}
                                                    run SPADE epochs and write the run files
  export --run DIR --format pool|rollouts|metrics|archive --out FILE
                                                    export a run directory
  import FILE|FOLDER --out DIR [--name NAME] [--timeout-ms N]
                                                    import a pool, pool rows, run archive or corpus
  verify --run DIR [--json]                         recompute a run's returns, stats, rewards and advantages`;

const COMMANDS: Record<string, typeof runValidate> = { validate: runValidate, play: runPlay, run: runRun, export: runExport, import: runImport, verify: runVerify };

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    process.stderr.write(`${name ? `unknown command: ${name}\n` : ''}${USAGE}\n`);
    return name === '--help' || name === 'help' ? 0 : 2;
  }
  let runtime: PyodideSandboxRuntime | null = null;
  const lazyRuntime = () => (runtime ??= createNodeSandboxRuntime());
  try {
    return await command(rest, lazyRuntime, (line) => process.stdout.write(line + '\n'));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n${USAGE}\n`);
      return 2;
    }
    process.stderr.write(`spade: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await (runtime as PyodideSandboxRuntime | null)?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
