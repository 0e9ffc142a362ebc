import { readFile } from 'node:fs/promises';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { StepResult } from '../core/env/contract.ts';
import { isEnvError } from '../core/env/env-error.ts';
import { DEFAULT_VALIDATION } from '../core/env/validate-env.ts';
import { episodeReturn } from '../core/scoring/episode-return.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';

function formatStep(index: number, action: string, step: StepResult): string {
  return [
    `--- step ${index}: ${action}`,
    step.observation,
    `reward=${step.reward} terminated=${step.terminated} truncated=${step.truncated}`,
  ].join('\n');
}

/** The flags of `spade play`. */
export const PLAY_OPTIONS = {
  seed: { type: 'string', value: 'N', help: 'the seed of the reset (default 0)' },
  actions: { type: 'string', value: "'A|B|C'", help: 'the actions to send, one per step, separated by | (required)' },
  json: { type: 'boolean', help: 'print the transcript and return as one JSON object' },
  'max-turns': {
    type: 'string',
    value: 'N',
    help: `the environment's turn cap (default ${DEFAULT_VALIDATION.maxTurns})`,
  },
} as const satisfies OptionTable;

/** `play <file.py> --seed N --actions 'a|b|c' [--json]`: loads the file as code, exactly as written, plays the actions and prints the transcript and return. */
export async function runPlay(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, PLAY_OPTIONS);
  if (positionals.length !== 1) throw new UsageError('play needs exactly one file');
  if (values.actions === undefined)
    throw new UsageError('play needs --actions, e.g. --actions "\\boxed{1}|\\boxed{2}"');
  const seed = integerOption(values.seed, 'seed', 0);
  const maxTurns = integerOption(values['max-turns'], 'max-turns', DEFAULT_VALIDATION.maxTurns);
  const actions = String(values.actions).split('|');
  const code = await readFile(positionals[0]!, 'utf8');
  const sandbox = runtime();
  const steps: Array<StepResult & { action: string }> = [];
  let observation = '';
  try {
    const handle = await sandbox.load(code, { maxTurns, timeoutMs: DEFAULT_VALIDATION.callTimeoutMs });
    observation = (await handle.reset(seed)).observation;
    if (!values.json) print(`=== ${handle.className}, seed ${seed}\n${observation}`);
    for (const [index, action] of actions.entries()) {
      const step = await handle.step(action);
      steps.push({ ...step, action });
      if (!values.json) print(formatStep(index + 1, action, step));
      if (step.terminated || step.truncated) break;
    }
  } catch (error) {
    if (!isEnvError(error)) throw error;
    print(
      values.json
        ? JSON.stringify({ ok: false, code: error.code, message: error.message, steps })
        : `ERROR ${error.code}: ${error.message}`,
    );
    return 1;
  }
  const result = episodeReturn(steps);
  print(values.json ? JSON.stringify({ ok: true, seed, observation, steps, return: result }) : `=== return ${result}`);
  return 0;
}
