import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { configProblems, DEFAULT_CONFIG, GAME_SKILLS, withPreset, type Config } from '../core/config.ts';
import { parseCorpus, type CorpusDoc } from '../core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../core/loop/epoch.ts';
import { REWARD_VARIANTS, type RewardVariant } from '../core/scoring/designer-reward.ts';
import { integerOption, parseCommandArgs, UsageError } from './args.ts';
import { modelFromSpec } from './model-spec.ts';
import { epochLine, runSummary } from './run-output.ts';

/** The corpus shipped with the app. */
export const SHIPPED_CORPUS = fileURLToPath(new URL('../../public/corpus/concepts.jsonl', import.meta.url));

async function loadCorpus(file: string, print: (line: string) => void): Promise<CorpusDoc[]> {
  const { docs, problems } = parseCorpus(await readFile(file, 'utf8'), file);
  if (problems.length > 0) print(`corpus ${file}: skipped ${problems.length} line(s), e.g. line ${problems[0]!.line}: ${problems[0]!.reason}`);
  if (docs.length === 0) throw new UsageError(`the corpus ${file} has no usable documents`);
  return docs;
}

function skillsOption(value: unknown, defaults: string[]): string[] {
  if (value === undefined) return defaults;
  const names = String(value).split(',').map((s) => s.trim()).filter(Boolean);
  const byLower = new Map(Object.keys(GAME_SKILLS).map((s) => [s.toLowerCase().replace(/[\s_-]+/g, ''), s]));
  return names.map((name) => {
    const skill = byLower.get(name.toLowerCase().replace(/[\s_-]+/g, ''));
    if (!skill) throw new UsageError(`unknown skill ${JSON.stringify(name)}; choose from ${Object.keys(GAME_SKILLS).join(', ')}`);
    return skill;
  });
}

/** `run --model SPEC --epochs N --seed S --out DIR [...]`: runs SPADE epochs and writes the run files. */
export async function runRun(argv: string[], runtime: () => SandboxRuntime, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    model: { type: 'string' }, epochs: { type: 'string' }, seed: { type: 'string' }, out: { type: 'string' },
    reward: { type: 'string' }, skills: { type: 'string' }, plays: { type: 'string' }, slots: { type: 'string' },
    attempts: { type: 'string' }, rollouts: { type: 'string' }, 'max-turns': { type: 'string' }, corpus: { type: 'string' },
    repair: { type: 'boolean' }, 'no-memory': { type: 'boolean' }, 'no-corpus': { type: 'boolean' },
    preset: { type: 'string' }, 'skills-per-epoch': { type: 'string' }, 'hint-plays': { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`run takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.model || !values.out) throw new UsageError('run needs --model and --out');
  const reward = (values.reward ?? DEFAULT_CONFIG.reward) as RewardVariant;
  if (!REWARD_VARIANTS.includes(reward)) throw new UsageError(`--reward must be one of ${REWARD_VARIANTS.join(', ')}`);
  const preset = values.preset ?? 'tab';
  if (preset !== 'tab' && preset !== 'reference') throw new UsageError(`--preset must be tab or reference, got ${JSON.stringify(preset)}`);
  const base = withPreset(DEFAULT_CONFIG, preset);
  const skills = skillsOption(values.skills, base.skills);
  const config: Config = {
    ...base,
    seed: integerOption(values.seed, 'seed', base.seed),
    skills,
    skillsPerEpoch: integerOption(values['skills-per-epoch'], 'skills-per-epoch', Math.min(base.skillsPerEpoch, skills.length)),
    reward,
    playsPerArm: integerOption(values.plays, 'plays', base.playsPerArm),
    hintPlays: integerOption(values['hint-plays'], 'hint-plays', values.plays === undefined ? base.hintPlays : integerOption(values.plays, 'plays', base.playsPerArm)),
    slotsPerEpoch: integerOption(values.slots, 'slots', base.slotsPerEpoch),
    attemptsPerSlot: integerOption(values.attempts, 'attempts', base.attemptsPerSlot),
    rolloutsPerEpoch: integerOption(values.rollouts, 'rollouts', base.rolloutsPerEpoch),
    maxTurns: integerOption(values['max-turns'], 'max-turns', base.maxTurns),
    repairMode: values.repair === true,
    useMemory: values['no-memory'] !== true,
    useCorpus: values['no-corpus'] !== true,
  };
  const problems = configProblems(config);
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  const epochs = integerOption(values.epochs, 'epochs', 1);
  if (epochs < 1) throw new UsageError('--epochs must be at least 1');
  const model = await modelFromSpec(String(values.model));
  const corpus = config.useCorpus ? await loadCorpus(values.corpus ? String(values.corpus) : SHIPPED_CORPUS, print) : [];
  const out = String(values.out);
  const store = new FileRunStore(out, { replaceExisting: true });
  const runId = basename(resolve(out));
  const now = Date.now();
  await store.createRun({ id: runId, name: runId, createdAt: now, updatedAt: now, config, modelId: model.id, status: 'running', epochsCompleted: 0, epochsPlanned: epochs, lastError: null });
  const sandbox = runtime();
  const results: EpochResult[] = [];
  let state = INITIAL_RUN_STATE;
  try {
    for (let i = 0; i < epochs; i++) {
      const result = await runEpoch({ model, sandbox, corpus }, state, config);
      await store.commitEpoch(runId, result);
      print(epochLine(result));
      results.push(result);
      state = result.nextState;
    }
  } catch (error) {
    await store.updateRun(runId, { status: 'failed', lastError: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  await store.updateRun(runId, { status: 'completed' });
  print(runSummary(results, out));
  return 0;
}
