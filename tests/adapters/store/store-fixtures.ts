// Real epochs for store tests: the scripted model of tests/fixtures/scripted/hint-helps.json and
// the real Node sandbox (as tests/core/loop/epoch.test.ts), plus synthetic epochs derived from them
// with varied skills, scores, ties and rejected slots so every explorer query has something to sort.
import { readFileSync } from 'node:fs';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { environmentId, INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import type { EnvironmentRecord } from '../../../src/core/records.ts';
import type { SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import type { RunMeta } from '../../../src/core/ports/store-port.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);

/** The small config of the scripted epoch tests. */
export const TEST_CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  skillsPerEpoch: 1,
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};

/** Runs `count` real scripted epochs one after another. */
export async function scriptedEpochs(
  sandbox: SandboxRuntime,
  count: number,
  config: Config = TEST_CONFIG,
): Promise<EpochResult[]> {
  const model = new ScriptedChatModel(SCRIPT);
  const results: EpochResult[] = [];
  let state = INITIAL_RUN_STATE;
  for (let i = 0; i < count; i++) {
    const result = await runEpoch({ model, sandbox, corpus: [] }, state, config);
    results.push(result);
    state = result.nextState;
  }
  return results;
}

/** A run's meta for tests. */
export function testMeta(id: string, createdAt = 1_700_000_000_000): RunMeta {
  return {
    id,
    name: `run ${id}`,
    createdAt,
    updatedAt: createdAt,
    config: TEST_CONFIG,
    modelId: 'scripted:hint-helps.json',
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: 3,
    lastError: null,
  };
}

const SKILLS = ['Logical Deduction', 'Optimization', 'Spatial Reasoning'];
const VALUES = [0.5, -0.25, 1, 0.5, 0, 0.75];

/**
 * `count` epochs built from the real ones: each has `slots` environments cycling through three
 * skills, scores from a small set (so sort keys tie), every fifth slot rejected (no stats) and
 * every seventh valid but unscored. Episodes and rollouts are the real ones re-labelled.
 */
export function syntheticEpochs(real: readonly EpochResult[], count: number, slots: number): EpochResult[] {
  const base = real[0]!;
  const out: EpochResult[] = [];
  for (let epoch = 0; epoch < count; epoch++) {
    const environments: EnvironmentRecord[] = [];
    const episodes: EpochResult['episodes'] = [];
    for (let slot = 0; slot < slots; slot++) {
      const n = epoch * slots + slot;
      const source = base.environments[n % base.environments.length]!;
      const id = environmentId(epoch, slot);
      const rejected = n % 5 === 4;
      const unscored = !rejected && n % 7 === 6;
      environments.push({
        ...structuredClone(source),
        id,
        epoch,
        slot,
        skill: SKILLS[n % SKILLS.length]!,
        status: rejected ? 'rejected' : 'valid',
        stats:
          rejected || unscored
            ? null
            : {
                ...source.stats!,
                regret: VALUES[n % VALUES.length]!,
                winRate: VALUES[(n + 2) % VALUES.length]!,
                designerReward: VALUES[(n + 4) % VALUES.length]!,
              },
        hint: rejected ? null : `hint ${n}`,
      });
      if (!rejected)
        episodes.push(
          ...base.episodes
            .filter((e) => e.envId === source.id)
            .map((e) => ({ ...structuredClone(e), envId: id, epoch, id: e.id.replace(source.id, id) })),
        );
    }
    const rollouts = base.rollouts.map((r) => ({ ...structuredClone(r), epoch }));
    out.push({
      epoch,
      environments,
      episodes,
      rollouts,
      evaluations: [],
      metrics: { ...structuredClone(base.metrics), epoch, slots },
      timings: { epoch, totalMs: 100 + epoch, modelMs: 10, sandboxMs: 90 + epoch },
      nextState: { ...structuredClone(base.nextState), epoch: epoch + 1 },
    });
  }
  return out;
}
