import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { parseCorpus } from '../../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import type { MemoryRecord } from '../../../src/core/loop/memory.ts';
import { planSlotMemory } from '../../../src/core/loop/slot-memory-plan.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { describeEnvironment } from '../../../src/core/prompts/designer-prompt.ts';
import { fakeSandbox, withDelays } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';

const SCRIPT = JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8'));
const CORPUS = parseCorpus(
  [
    JSON.stringify({ text: 'Keys and locks: a lock opens for exactly one key.', skill: 'Logical Deduction' }),
    JSON.stringify({ orig_doc: 'Doors and passwords: a word can open a door.' }),
  ].join('\n'),
).docs;
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 11,
  skills: ['Logical Deduction', 'Optimization'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
};

// The loop is the point, not Python: the script's games run as in-process doubles, and every
// reset and step answers after a random 0-3 ms, so each run interleaves its concurrent plays
// differently; the outputs must not notice.
const sandbox = withDelays(fakeSandbox(HINT_HELPS_DOUBLES), () => Math.floor(Math.random() * 4));

async function run(
  config: Config,
  epochs: number,
): Promise<{ results: EpochResult[]; seeds: number[]; prompts: string[] }> {
  const scripted = new ScriptedChatModel(parseChatScript(SCRIPT));
  const seeds: number[] = [];
  const prompts: string[] = [];
  const model = {
    id: scripted.id,
    complete: (r: ChatRequest) => (seeds.push(r.seed), prompts.push(JSON.stringify(r.messages)), scripted.complete(r)),
  };
  const results: EpochResult[] = [];
  let state = INITIAL_RUN_STATE;
  for (let i = 0; i < epochs; i++) {
    const result = await runEpoch({ model, sandbox, corpus: CORPUS }, state, config);
    results.push(result);
    state = result.nextState;
  }
  return { results, seeds, prompts };
}

const reproducible = (results: EpochResult[]) => JSON.stringify(results.map(({ timings: _timings, ...rest }) => rest));

describe('whole-run reproducibility', () => {
  it('the same seed, config and scripted model give byte-identical outputs', async () => {
    const first = await run(CONFIG, 2);
    const second = await run(CONFIG, 2);
    expect(reproducible(second.results)).toBe(reproducible(first.results));
    expect(second.seeds).toEqual(first.seeds);
    expect(second.prompts).toEqual(first.prompts);
  });

  it('a different run seed changes the model seeds, the play seeds and the memory sampling', async () => {
    const a = await run(CONFIG, 1);
    const b = await run({ ...CONFIG, seed: 12 }, 1);
    expect(b.seeds).not.toEqual(a.seeds);
    expect(b.results[0]!.episodes.map((e) => e.seed)).not.toEqual(a.results[0]!.episodes.map((e) => e.seed));
    // The memory sampling: the same memory shows other positives to the designers of another seed's epoch.
    const memory: MemoryRecord[] = CONFIG.skills.flatMap((skill, s) =>
      Array.from({ length: 10 }, (_, i) => ({
        envId: `e0000-s${s}${i}`,
        skill,
        code: 'class G: pass',
        winRate: 0.5,
        regret: 0.1 * i,
        epoch: 0,
      })),
    );
    const shown = (config: Config) =>
      planSlotMemory(config, memory, 1).map((plan) => plan.selection!.positives.map((record) => record.envId));
    expect(shown(CONFIG)).toEqual(shown({ ...CONFIG }));
    expect(shown(CONFIG).flat()).toHaveLength(4);
    expect(shown({ ...CONFIG, seed: 12 })).not.toEqual(shown(CONFIG));
  });

  it('grounds designer prompts in the corpus and shows memory from the previous epoch', async () => {
    const { results } = await run(CONFIG, 2);
    const first = results[0]!.environments[0]!.attempts[0]!.messages[0]!.content;
    expect(first).toContain('<document>\nKeys and locks: a lock opens for exactly one key.\n</document>');
    const later = results[1]!.environments.find((e) => e.skill === 'Logical Deduction')!;
    expect(later.memoryShown.negative).toBe('e0000-s00');
    const negative = results[0]!.environments.find((e) => e.id === 'e0000-s00')!;
    expect(later.attempts[0]!.messages[0]!.content).toContain(
      `Do not make another environment like ${describeEnvironment(negative.code, negative.skill)}: it was too hard (win rate 0.00).`,
    );
    expect(later.attempts[0]!.messages[0]!.content).not.toContain('e0000-s00');
    expect(later.attempts[0]!.messages[0]!.content).not.toContain(results[0]!.environments[0]!.code.slice(0, 40));
    expect(later.difficulty).toBe('easy');
  });
});
