import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import type { ChatModel } from '../core/ports/chat-port.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { RunMeta } from '../core/ports/store-port.ts';
import type { Suite } from '../core/eval/suite.ts';
import { configProblems, DEFAULT_CONFIG, withPreset, type Config } from '../core/config.ts';
import { CONFIG_TABLE } from '../core/config-table.ts';
import { parseCorpus, type CorpusDoc } from '../core/loop/corpus.ts';
import { INITIAL_RUN_STATE, type EpochResult, type RunState } from '../core/loop/epoch.ts';
import { runEpochs } from '../core/loop/run-epochs.ts';
import { grammarNote } from '../core/loop/agent-grammar.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { CONFIG_FLAG_OPTIONS, configFromFlags } from './config-flags.ts';
import { contextWindowOption, modelFromSpec } from './model-spec.ts';
import { epochLine, evalLine, runSummary } from './run-output.ts';
import { checkOutFolder, checkResumedConfig, type FolderMode } from './run-folder.ts';
import { loadSuite } from './suite-spec.ts';
import { errorMessage } from '../core/error-message.ts';
import { count } from './plural.ts';

/** The corpus shipped with the app. */
export const SHIPPED_CORPUS = fileURLToPath(new URL('../../public/corpus/concepts.jsonl', import.meta.url));

async function loadCorpus(file: string, print: (line: string) => void): Promise<CorpusDoc[]> {
  const { docs, problems } = parseCorpus(await readFile(file, 'utf8'), file);
  if (problems.length > 0)
    print(
      `corpus ${file}: skipped ${count(problems.length, 'line')}, e.g. line ${problems[0]!.line}: ${problems[0]!.reason}`,
    );
  if (docs.length === 0) throw new UsageError(`the corpus ${file} has no usable documents`);
  return docs;
}

/** The options `spade run` takes besides the config table's flags. */
export const RUN_OPTIONS = {
  model: {
    type: 'string',
    value: 'SPEC',
    help: 'the model: scripted:FILE (a chat script) or openai:URL#MODEL (any /v1/chat/completions server; OPENAI_API_KEY is sent when set); required',
  },
  epochs: { type: 'string', value: 'N', help: "epochs in all (default 1; with --resume, the run's planned count)" },
  out: { type: 'string', value: 'DIR', help: 'the run directory, new or empty unless --resume or --replace; required' },
  corpus: {
    type: 'string',
    value: 'FILE.jsonl',
    help: 'grounding documents, one JSON object per line (default: the shipped corpus)',
  },
  preset: {
    type: 'string',
    value: 'tab|reference',
    help: "the config the flags start from: the tab's defaults or SPADE's own scale (default tab)",
  },
  eval: {
    type: 'string',
    value: 'builtin|FILE|DIR|DIR@N',
    help: "the held-out suite of scheduled evaluations (a pool, or a run directory's pool at epoch N); alone, every epoch",
  },
  'context-window': {
    type: 'string',
    value: 'N',
    help: 'the context window in tokens, for a server that does not report its own',
  },
  'fixed-pool': {
    type: 'string',
    value: 'FILE|DIR|DIR@N',
    help: 'play this pool every epoch instead of designing (the fixed-pool baseline)',
  },
  resume: {
    type: 'boolean',
    help: 'continue the run in --out from its last committed epoch, with its recorded config',
  },
  replace: { type: 'boolean', help: 'discard the run in --out and start a new one there' },
} as const satisfies OptionTable;

/**
 * The suite of a run's scheduled evaluations and its evaluation interval: `--eval` alone means
 * every epoch, `--eval-every N` alone the built-in suite; null when none are scheduled.
 */
function scheduledSuite(
  spec: string | undefined,
  everyGiven: boolean,
  config: Config,
): { spec: string; config: Config } | null {
  if (spec !== undefined && everyGiven && config.evalEvery === 0)
    throw new UsageError('--eval needs --eval-every of at least 1 (or no --eval-every, meaning every epoch)');
  if (spec !== undefined) return { spec, config: everyGiven ? config : { ...config, evalEvery: 1 } };
  return config.evalEvery > 0 ? { spec: 'builtin', config } : null;
}

type RunValues = ReturnType<typeof parseRunArgs>['values'];

function parseRunArgs(argv: string[]) {
  return parseCommandArgs(argv, { ...RUN_OPTIONS, ...CONFIG_FLAG_OPTIONS });
}

function presetOf(values: RunValues): 'tab' | 'reference' {
  const preset = values.preset ?? 'tab';
  if (preset !== 'tab' && preset !== 'reference')
    throw new UsageError(`--preset must be tab or reference, got ${JSON.stringify(preset)}`);
  return preset;
}

/** The config the flags ask for over `base`, with the evaluation schedule `--eval` implies, and the suite spec of its scheduled evaluations. */
function requestedConfig(values: RunValues, base: Config): { config: Config; suiteSpec: string | null } {
  const flagged = configFromFlags(values, base);
  const scheduled = scheduledSuite(
    values.eval === undefined ? undefined : String(values.eval),
    values[CONFIG_TABLE.evalEvery.flag] !== undefined,
    flagged,
  );
  return { config: scheduled?.config ?? flagged, suiteSpec: scheduled?.spec ?? null };
}

/** Where one invocation's epochs go and what they run with. */
interface EpochPlan {
  store: FileRunStore;
  meta: RunMeta;
  model: ChatModel;
  state: RunState;
  epochs: number;
  evalSuite: Suite | undefined;
  pool: Suite | undefined;
  corpus: CorpusDoc[];
  out: string;
}

/** Runs the plan's epochs from its state to `epochs` in all, committing each, and marks the run completed (or failed, then rethrows). */
async function playEpochs(
  plan: EpochPlan,
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { store, meta, evalSuite, pool } = plan;
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
        model: plan.model,
        sandbox: runtime(),
        corpus: plan.corpus,
        commit: (result) => store.commitEpoch(meta.id, result),
        committed,
        emit: (event) => {
          if (event.type === 'eval_completed' && event.record.afterEpochs === event.epoch)
            print(evalLine(event.record));
        },
        ...(evalSuite ? { evalSuite } : {}),
        ...(pool ? { fixedPool: pool.environments } : {}),
      },
      plan.state,
      meta.config,
      plan.epochs - plan.state.epoch,
    );
  } catch (error) {
    await store.updateRun(meta.id, { status: 'failed', lastError: errorMessage(error) });
    throw error;
  }
  await store.updateRun(meta.id, { status: 'completed' });
  print(runSummary(results, plan.out));
  return 0;
}

/** A suite given again on resume must be the one the run recorded (same digest). */
function sameSuite(what: string, recorded: { name: string; sha256: string } | undefined, given: Suite): void {
  if (recorded?.sha256 !== given.sha256)
    throw new UsageError(
      `--resume: ${what} ${given.name} is not the one the run recorded (${recorded ? `${recorded.name}, sha256 ${recorded.sha256.slice(0, 12)}` : 'none'})`,
    );
}

/** The suite of a resumed run's scheduled evaluations: `--eval` again, or the built-in one it recorded. */
async function resumedSuite(
  values: RunValues,
  meta: RunMeta,
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<Suite> {
  const spec =
    values.eval === undefined
      ? meta.evalSuite?.name === 'builtin' || !meta.evalSuite
        ? 'builtin'
        : null
      : String(values.eval);
  if (spec === null)
    throw new UsageError(
      `--resume: the run's evaluations play the suite ${meta.evalSuite!.name}; give it again with --eval`,
    );
  const suite = await loadSuite(spec, meta.config, runtime, print);
  if (meta.evalSuite) sameSuite('the held-out suite', meta.evalSuite, suite);
  return suite;
}

/**
 * Continues the run in `out` from its last committed epoch with its recorded config, model, suite
 * and fixed pool, up to `--epochs` in all (default: the planned count); flags that would change the
 * config are refused. Continuing gives the files an uninterrupted run of as many epochs writes.
 */
async function resumeRun(
  values: RunValues,
  meta: RunMeta,
  out: string,
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const base = values.preset === undefined ? meta.config : withPreset(DEFAULT_CONFIG, presetOf(values));
  const asked = values.preset === undefined ? configFromFlags(values, base) : requestedConfig(values, base).config;
  checkResumedConfig(meta.config, asked);
  if (values.eval !== undefined && meta.config.evalEvery === 0)
    throw new UsageError('--resume: the run schedules no held-out evaluations, so --eval cannot be given');
  const epochs = values.epochs === undefined ? meta.epochsPlanned : integerOption(values.epochs, 'epochs', 1);
  if (epochs < meta.epochsCompleted)
    throw new UsageError(
      `--epochs ${epochs} is fewer than the ${count(meta.epochsCompleted, 'epoch')} ${out} already holds`,
    );
  const model = await modelFromSpec(
    String(values.model),
    contextWindowOption(values['context-window'], String(values.model)),
  );
  if (model.id !== meta.modelId)
    throw new UsageError(`--resume: the run was made with the model ${meta.modelId}, not ${model.id}`);
  const unconstrained = grammarNote(meta.config, model);
  if (unconstrained) print(unconstrained);
  const store = new FileRunStore(out);
  if (epochs === meta.epochsCompleted) {
    if (meta.status !== 'completed') await store.updateRun(meta.id, { status: 'completed', epochsPlanned: epochs });
    print(`${out} already holds all ${count(epochs, 'epoch')}; nothing to run (give a larger --epochs to extend it)`);
    return 0;
  }
  const evalSuite = meta.config.evalEvery > 0 ? await resumedSuite(values, meta, runtime, print) : undefined;
  const given =
    values['fixed-pool'] === undefined
      ? undefined
      : await loadSuite(String(values['fixed-pool']), meta.config, runtime, print);
  if (given) sameSuite('the fixed pool', meta.fixedPool, given);
  const pool = meta.fixedPool
    ? { name: meta.fixedPool.name, sha256: meta.fixedPool.sha256, environments: meta.fixedPool.environments }
    : undefined;
  const corpus =
    meta.config.useCorpus && !pool
      ? await loadCorpus(values.corpus ? String(values.corpus) : SHIPPED_CORPUS, print)
      : [];
  const loaded = await store.loadRun(meta.id);
  if (!loaded) throw new UsageError(`--resume: ${out} holds no run to continue`);
  await store.updateRun(meta.id, { epochsPlanned: epochs, status: 'running', lastError: null });
  print(`resuming ${out} after epoch ${loaded.state.epoch}, to ${count(epochs, 'epoch')}`);
  return playEpochs(
    {
      store,
      meta: { ...meta, epochsPlanned: epochs },
      model,
      state: loaded.state,
      epochs,
      evalSuite,
      pool,
      corpus,
      out,
    },
    runtime,
    print,
  );
}

/**
 * `run --model SPEC --epochs N --seed S --out DIR [--resume | --replace] [...]`: runs SPADE epochs
 * and writes the run files. DIR must be new or empty unless `--resume` continues the run it holds
 * or `--replace` discards it; a DIR holding other files is always refused.
 */
export async function runRun(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseRunArgs(argv);
  if (positionals.length > 0) throw new UsageError(`run takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.model || !values.out) throw new UsageError('run needs --model and --out');
  if (values.resume && values.replace)
    throw new UsageError('--resume continues the run in --out and --replace discards it: give one of them');
  const out = String(values.out);
  const mode: FolderMode = values.resume ? 'resume' : values.replace ? 'replace' : 'new';
  if (mode !== 'resume') {
    const { config } = requestedConfig(values, withPreset(DEFAULT_CONFIG, presetOf(values)));
    const problems = configProblems(config);
    if (problems.length > 0) throw new UsageError(problems.join('; '));
    if (integerOption(values.epochs, 'epochs', 1) < 1) throw new UsageError('--epochs must be at least 1');
  }
  const existing = await checkOutFolder(out, mode);
  if (mode === 'resume') return resumeRun(values, existing!, out, runtime, print);
  const { config, suiteSpec } = requestedConfig(values, withPreset(DEFAULT_CONFIG, presetOf(values)));
  const epochs = integerOption(values.epochs, 'epochs', 1);
  const model = await modelFromSpec(
    String(values.model),
    contextWindowOption(values['context-window'], String(values.model)),
  );
  const unconstrained = grammarNote(config, model);
  if (unconstrained) print(unconstrained);
  const evalSuite = suiteSpec === null ? undefined : await loadSuite(suiteSpec, config, runtime, print);
  const pool =
    values['fixed-pool'] === undefined
      ? undefined
      : await loadSuite(String(values['fixed-pool']), config, runtime, print);
  const corpus =
    config.useCorpus && !pool ? await loadCorpus(values.corpus ? String(values.corpus) : SHIPPED_CORPUS, print) : [];
  const store = new FileRunStore(out, { replaceExisting: mode === 'replace' });
  const runId = basename(resolve(out));
  const now = Date.now();
  const meta: RunMeta = {
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
  };
  await store.createRun(meta);
  return playEpochs(
    { store, meta, model, state: INITIAL_RUN_STATE, epochs, evalSuite, pool, corpus, out },
    runtime,
    print,
  );
}
