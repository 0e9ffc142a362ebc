// Node side of the explorer and environment-page browser tests: a big run's config and meta, and
// its featured environments built for real in the Node sandbox: number_ladder.py (a good fixture
// with a known winning line) after one rejected attempt, with episodes actually played (a scripted
// agent that guesses without the hint and follows the shortest line with it), scored by the core;
// and one environment rejected after two attempts, with the validator's real verdicts.
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { validateEnvironment, DEFAULT_VALIDATION } from '../../src/core/env/validate-env.ts';
import { environmentId } from '../../src/core/loop/epoch.ts';
import { playEpisode } from '../../src/core/loop/play-episode.ts';
import { roleThinking } from '../../src/core/thinking.ts';
import type { DesignAttempt, EnvironmentRecord, Episode } from '../../src/core/records.ts';
import type { SandboxRuntime } from '../../src/core/ports/sandbox-port.ts';
import { scoreEpoch } from '../../src/core/scoring/score-epoch.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';
import { GOOD_ENVS, readEnv } from '../fixtures/env-fixtures.ts';

/** The big run's settings: 20 slots per epoch, K = 2, a 6-turn cap. */
export const SEED_CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 3,
  slotsPerEpoch: 20,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 6,
};

/** The fixture whose winning line the play-it-yourself test types. */
export const LADDER = GOOD_ENVS.find((f) => f.file === 'number_ladder.py')!;

/** The featured environment's hint. */
export const LADDER_HINT =
  'Multiplying late gets you further: add first, multiply last. Answer with \\boxed{A}, \\boxed{B} or \\boxed{C}.';

/** A completed run of `epochs` epochs. */
export function seedMeta(id: string, epochs: number): RunMeta {
  return {
    id,
    name: `Explorer test run (${epochs * SEED_CONFIG.slotsPerEpoch} environments)`,
    createdAt: 1_700_000_000_000,
    updatedAt: 1_700_000_000_000,
    config: SEED_CONFIG,
    modelId: 'scripted:spade-lab-demo',
    status: 'completed',
    epochsCompleted: 0,
    epochsPlanned: epochs,
    lastError: null,
  };
}

async function attempt(sandbox: SandboxRuntime, index: number, code: string): Promise<DesignAttempt> {
  const report = await validateEnvironment(code, sandbox, {
    ...DEFAULT_VALIDATION,
    totalTimeoutMs: 10_000,
    callTimeoutMs: 5000,
  });
  return {
    attempt: index,
    repair: false,
    messages: [{ role: 'user', content: `Target skill: Mathematical Reasoning (attempt ${index + 1})` }],
    reply: `\`\`\`python\n${code}\`\`\``,
    code: report.source || code,
    validation: {
      ok: report.ok,
      stage: report.stage,
      code: report.code,
      message: report.message,
      className: report.className,
      repairedLines: report.repairedLines,
    },
    usage: { promptTokens: 1200, completionTokens: 600 },
  };
}

const base = (
  epoch: number,
  slot: number,
): Omit<EnvironmentRecord, 'status' | 'code' | 'attempts' | 'hint' | 'stats'> => ({
  id: environmentId(epoch, slot),
  epoch,
  slot,
  skill: 'Mathematical Reasoning',
  difficulty: 'medium',
  docId: 'mathematical-reasoning-01',
  memoryShown: { positives: ['e0003-s01', environmentId(epoch - 1, 4)], negative: 'e0020-s05' },
  hintMessages: null,
  hintReply: null,
  note: null,
});

/** The featured environments of epoch `epoch` (slots 0 and 1) and the valid one's episodes. */
export async function featuredEnvironments(
  sandbox: SandboxRuntime,
  epoch: number,
): Promise<{ environments: EnvironmentRecord[]; episodes: Episode[] }> {
  const ladderCode = readEnv('good', LADDER.file);
  const tried = [
    await attempt(sandbox, 0, readEnv('broken', 'step_three_tuple.py')),
    await attempt(sandbox, 1, ladderCode),
  ];
  if (!tried[1]!.validation.ok || tried[0]!.validation.ok) throw new Error('fixture verdicts changed');
  const ladder: EnvironmentRecord = {
    ...base(epoch, 0),
    status: 'valid',
    code: tried[1]!.code,
    attempts: tried,
    hint: LADDER_HINT,
    stats: null,
  };
  const handle = await sandbox.load(ladder.code, { maxTurns: SEED_CONFIG.maxTurns, timeoutMs: 5000 });
  const raw: Episode[] = [];
  try {
    const seeds = [LADDER.seed, LADDER.seed + 1];
    for (const arm of ['nohint', 'hint'] as const) {
      for (const [index, seed] of seeds.entries()) {
        await handle.reset(seed, { timeoutMs: 5000 });
        const line = ((await handle.solution()) ?? '').replace('Shortest sequence: ', '').split(' ');
        const model = new ScriptedChatModel((request) => {
          const turn = request.messages.filter((m) => m.role === 'assistant').length;
          return arm === 'hint'
            ? `The hint says to multiply late. I apply \\boxed{${line[turn] ?? 'A'}}.`
            : 'Subtracting keeps numbers small. I try \\boxed{C}.';
        });
        const played = await playEpisode(model, handle, {
          seed,
          hint: arm === 'hint' ? LADDER_HINT : null,
          maxTurns: SEED_CONFIG.maxTurns,
          stepTimeoutMs: 5000,
          sampling: SEED_CONFIG.agent,
          thinking: roleThinking(SEED_CONFIG, 'agent'),
          modelSeedKey: `${ladder.id}-${arm}-${index}`,
          template: SEED_CONFIG.prompts.agent,
        });
        raw.push({
          id: `${ladder.id}-r0-${arm}-${index}`,
          envId: ladder.id,
          epoch,
          rollout: 0,
          arm,
          index,
          seed,
          ...played,
          dropped: false,
          retried: false,
          advantage: 0,
        });
      }
    }
  } finally {
    await handle.dispose();
  }
  const rejectedTries = [
    await attempt(sandbox, 0, readEnv('broken', 'syntax_error.py')),
    await attempt(sandbox, 1, readEnv('broken', 'step_three_tuple.py')),
  ];
  const rejected: EnvironmentRecord = {
    ...base(epoch, 1),
    status: 'rejected',
    code: rejectedTries[1]!.code,
    attempts: rejectedTries,
    hint: null,
    stats: null,
  };
  const scored = scoreEpoch(epoch, [ladder, rejected], raw, { ...SEED_CONFIG, rolloutsPerEpoch: 1 }, {});
  return { environments: scored.environments, episodes: scored.episodes };
}
