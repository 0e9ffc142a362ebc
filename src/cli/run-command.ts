import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { configProblems, DEFAULT_CONFIG, withPreset, type Config } from '../core/config.ts';
import { CONFIG_TABLE } from '../core/config-table.ts';
import { parseCorpus, type CorpusDoc } from '../core/loop/corpus.ts';
import { INITIAL_RUN_STATE, type EpochResult } from '../core/loop/epoch.ts';
import { runEpochs } from '../core/loop/run-epochs.ts';
import { grammarNote } from '../core/loop/agent-grammar.ts';
import { integerOption, parseCommandArgs, UsageError } from './args.ts';
import { CONFIG_FLAG_OPTIONS, configFromFlags } from './config-flags.ts';
import { contextWindowOption, modelFromSpec } from './model-spec.ts';
import { epochLine, evalLine, runSummary } from './run-output.ts';
import { loadSuite } from './suite-spec.ts';

/** The corpus shipped with the app. */
export const SHIPPED_CORPUS = fileURLToPath(new URL('../../public/corpus/concepts.jsonl', import.meta.url));

async function loadCorpus(file: string, print: (line: string) => void): Promise<CorpusDoc[]> {
  const { docs, problems } = parseCorpus(await readFile(file, 'utf8'), file);
  if (problems.length > 0) print(`corpus ${file}: skipped ${problems.length} line(s), e.g. line ${problems[0]!.line}: ${problems[0]!.reason}`);
  if (docs.length === 0) throw new UsageError(`the corpus ${file} has no usable documents`);
  return docs;
}

/** The options `spade run` takes besides the config table's flags. */
export const RUN_OPTIONS = {
  model: { type: 'string' },
  epochs: { type: 'string' },
  out: { type: 'string' },
  corpus: { type: 'string' },
  preset: { type: 'string' },
  eval: { type: 'string' },
  'context-window': { type: 'string' },
  'fixed-pool': { type: 'string' },
} as const;

/**
 * The suite of a run's scheduled evaluations and its evaluation interval: `--eval` alone means
 * every epoch, `--eval-every N` alone the built-in suite; null when none are scheduled.
 */
function scheduledSuite(spec: string | undefined, everyGiven: boolean, config: Config): { spec: string; config: Config } | null {
  if (spec !== undefined && everyGiven && config.evalEvery === 0) throw new UsageError('--eval needs --eval-every of at least 1 (or no --eval-every, meaning every epoch)');
  if (spec !== undefined) return { spec, config: everyGiven ? config : { ...config, evalEvery: 1 } };
  return config.evalEvery > 0 ? { spec: 'builtin', config } : null;
}

/** `run --model SPEC --epochs N --seed S --out DIR [...]`: runs SPADE epochs and writes the run files. */
export async function runRun(argv: string[], runtime: () => SandboxRuntime, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { ...RUN_OPTIONS, ...CONFIG_FLAG_OPTIONS });
  if (positionals.length > 0) throw new UsageError(`run takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.model || !values.out) throw new UsageError('run needs --model and --out');
  const preset = values.preset ?? 'tab';
  if (preset !== 'tab' && preset !== 'reference') throw new UsageError(`--preset must be tab or reference, got ${JSON.stringify(preset)}`);
  const flagged = configFromFlags(values, withPreset(DEFAULT_CONFIG, preset));
  const scheduled = scheduledSuite(values.eval === undefined ? undefined : String(values.eval), values[CONFIG_TABLE.evalEvery.flag] !== undefined, flagged);
  const config = scheduled?.config ?? flagged;
  const problems = configProblems(config);
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  const epochs = integerOption(values.epochs, 'epochs', 1);
  if (epochs < 1) throw new UsageError('--epochs must be at least 1');
  const model = await modelFromSpec(String(values.model), contextWindowOption(values['context-window'], String(values.model)));
  const unconstrained = grammarNote(config, model);
  if (unconstrained) print(unconstrained);
  const evalSuite = scheduled ? await loadSuite(scheduled.spec, config, runtime, print) : undefined;
  const pool = values['fixed-pool'] === undefined ? undefined : await loadSuite(String(values['fixed-pool']), config, runtime, print);
  const corpus = config.useCorpus && !pool ? await loadCorpus(values.corpus ? String(values.corpus) : SHIPPED_CORPUS, print) : [];
  const out = String(values.out);
  const store = new FileRunStore(out, { replaceExisting: true });
  const runId = basename(resolve(out));
  const now = Date.now();
  await store.createRun({
    id: runId,
    name: runId,
    createdAt: now,
    updatedAt: now,
    config,
    modelId: model.id,
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: epochs,
    lastError: null,
    ...(evalSuite ? { evalSuite: { name: evalSuite.name, sha256: evalSuite.sha256 } } : {}),
    ...(pool ? { fixedPool: pool } : {}),
  });
  const sandbox = runtime();
  const results: EpochResult[] = [];
  // The evaluation before training is printed as soon as it ends; those after an epoch follow its line.
  const committed = (result: EpochResult) => {
    print(epochLine(result));
    for (const record of result.evaluations) if (record.afterEpochs > result.epoch) print(evalLine(record));
    results.push(result);
  };
  try {
    await runEpochs(
      {
        model,
        sandbox,
        corpus,
        commit: (result) => store.commitEpoch(runId, result),
        committed,
        emit: (event) => {
          if (event.type === 'eval_completed' && event.record.afterEpochs === event.epoch) print(evalLine(event.record));
        },
        ...(evalSuite ? { evalSuite } : {}),
        ...(pool ? { fixedPool: pool.environments } : {}),
      },
      INITIAL_RUN_STATE,
      config,
      epochs,
    );
  } catch (error) {
    await store.updateRun(runId, { status: 'failed', lastError: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  await store.updateRun(runId, { status: 'completed' });
  print(runSummary(results, out));
  return 0;
}
