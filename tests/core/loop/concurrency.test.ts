// The scheduler is the point, not Python: games are in-process doubles whose resets and steps
// answer after a random delay, and the model streams after random pauses, so every run finishes
// its work in a different order. The files a run writes must not notice.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { FileRunStore } from '../../../src/adapters/store/file-run-store.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import { runEpochs } from '../../../src/core/loop/run-epochs.ts';
import type { ChatModel, ChatRequest } from '../../../src/core/ports/chat-port.ts';
import type { Suite } from '../../../src/core/eval/suite.ts';
import { boxedAnswer, fakeFailure, fakeSandbox, withDelays, type FakeClass } from '../../fixtures/fake-sandbox.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';
import { clocklessRunFiles, readRunFiles } from '../../fixtures/run-files.ts';

const jitter = () => Math.floor(Math.random() * 3);

/** A two-step game: say `open`, then its word (`\boxed{word}`); the word is in the hint. Crashes or hangs on the seeds `fails` picks. */
const game =
  (name: string, fails: (seed: number) => 'crash' | 'hang' | null = () => null): FakeClass =>
  () => {
    let seed = 0;
    let opened = false;
    return {
      reset: (s) => {
        seed = s ?? 0;
        opened = false;
        return { observation: `Game ${name} (seed ${seed}). Say open first.`, info: {} };
      },
      step: (action) => {
        const failure = fails(seed);
        if (opened && failure) throw fakeFailure(failure === 'hang' ? 'step_timeout' : 'step_exception');
        if (!opened) {
          opened = boxedAnswer(action) === 'open';
          return {
            observation: opened ? 'The door is open. Now the word.' : 'Still shut.',
            reward: 0,
            terminated: false,
            truncated: false,
            info: {},
          };
        }
        const won = boxedAnswer(action) === name.toLowerCase();
        return {
          observation: won ? 'You win.' : 'Wrong word.',
          reward: won ? 1 : 0,
          terminated: true,
          truncated: false,
          info: {},
        };
      },
    };
  };

const GAMES: Record<string, FakeClass> = {
  Amber: game('Amber'),
  Crashy: game('Crashy', (seed) => (seed % 3 === 0 ? 'crash' : null)),
  Stall: game('Stall', (seed) => (seed % 4 === 1 ? 'hang' : null)),
  Held: game('Held', (seed) => (seed % 5 === 4 ? 'hang' : null)),
};
const DESIGNS = ['Amber', 'Crashy', 'Stall', 'no code today'];

/** Replies from the request alone (no state), so they cannot depend on the order of calls. */
function reply(request: ChatRequest): string {
  const first = request.messages[0]!.content;
  if (request.purpose === 'designer' || request.purpose === 'repair') {
    const design = DESIGNS[request.seed % DESIGNS.length]!;
    return design.includes(' ') ? design : `\`\`\`python\n${design}\n\`\`\``;
  }
  if (request.purpose === 'hint') return "Open the door, then say the game's own name.";
  if (request.purpose === 'lesson') return 'LESSON: Open the door first, then say the name of the game.';
  const name = /Game (\w+)/.exec(request.messages.map((m) => m.content).join('\n'))?.[1] ?? 'x';
  if (request.messages.length === 1) return 'I say \\boxed{open}.';
  const helped = /HINT:|PLAYBOOK/.test(first) || request.seed % 2 === 0;
  return helped ? `I say \\boxed{${name.toLowerCase()}}.` : 'I say \\boxed{nothing}.';
}

const SUITE: Suite = {
  name: 'doubles',
  sha256: 'doubles',
  environments: ['Held', 'Amber'].map((name, i) => ({
    id: `held-${i}`,
    skill: 'Logical Deduction',
    code: name,
    title: null,
  })),
};

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 5,
  skills: ['Logical Deduction', 'Optimization'],
  slotsPerEpoch: 6,
  playsPerArm: 3,
  hintPlays: 3,
  rolloutsPerEpoch: 2,
  maxTurns: 3,
  useCorpus: false,
  usePlaybook: true,
  evalEvery: 1,
  evalSeeds: 3,
};

/** The model with streaming pauses, and the most calls it had in flight. */
function countingModel(): { model: ChatModel; peak: () => number } {
  const scripted = new ScriptedChatModel(reply, 'stateless', jitter);
  let inFlight = 0;
  let peak = 0;
  const model: ChatModel = {
    id: scripted.id,
    maxConcurrency: scripted.maxConcurrency,
    async complete(request) {
      peak = Math.max(peak, ++inFlight);
      try {
        return await scripted.complete(request);
      } finally {
        inFlight -= 1;
      }
    },
  };
  return { model, peak: () => peak };
}

async function runToFiles(
  concurrency: number,
  lookAhead?: number,
): Promise<{ files: Record<string, string>; peak: number }> {
  const dir = join(tempDir('spade-concurrency-'), 'run');
  const store = new FileRunStore(dir);
  const config = { ...CONFIG, concurrency };
  const { model, peak } = countingModel();
  await store.createRun({
    id: 'run',
    name: 'run',
    createdAt: 0,
    updatedAt: 0,
    config,
    modelId: model.id,
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: 2,
    lastError: null,
  });
  await runEpochs(
    {
      model,
      sandbox: { ...withDelays(fakeSandbox(GAMES), jitter), parallelism: lookAhead },
      corpus: [],
      evalSuite: SUITE,
      commit: (result) => store.commitEpoch('run', result),
    },
    INITIAL_RUN_STATE,
    config,
    2,
  );
  return { files: readRunFiles(dir), peak: peak() };
}

describe('concurrency changes no result', () => {
  it('writes byte-identical run files at concurrency 1 and 32, plays loaded ahead or not (the setting itself aside; timings and updatedAt are wall clock)', async () => {
    const one = await runToFiles(1);
    const many = await runToFiles(32, 4);
    expect(one.peak).toBe(1);
    expect(many.peak).toBeGreaterThan(8);
    expect(many.peak).toBeLessThanOrEqual(32);
    expect(Object.keys(many.files).sort()).toEqual(Object.keys(one.files).sort());
    // Wall-clock parts aside (run.json's updatedAt, timings.jsonl and its size in state.json).
    const expected = clocklessRunFiles(one.files);
    for (const [name, text] of Object.entries(clocklessRunFiles(many.files, { from: 32, to: 1 })))
      expect(text, name).toBe(expected[name]);
    expect(many.files['config.json']).toContain('"concurrency": 32');
    // The run exercised every rule: retries, a hang that skips plays which ran beside it, held-out hangs, lessons.
    const episodes = one.files['episodes.jsonl']!;
    expect(episodes).toContain('-failed');
    expect(episodes).toContain('"code":"env_hung"');
    expect(one.files['evals.jsonl']).toContain('"error":"env_hung"');
    expect(one.files['environments.jsonl']).toContain('"ok":false');
  });

  it('never has more calls in flight than the concurrency, nor more than the model takes', async () => {
    for (const concurrency of [3, 7]) {
      const { model, peak } = countingModel();
      await runEpoch({ model, sandbox: withDelays(fakeSandbox(GAMES), jitter), corpus: [] }, INITIAL_RUN_STATE, {
        ...CONFIG,
        evalEvery: 0,
        concurrency,
      });
      expect(peak()).toBe(concurrency);
    }
    const { model, peak } = countingModel();
    await runEpoch(
      { model: { ...model, complete: model.complete, maxConcurrency: 2 }, sandbox: fakeSandbox(GAMES), corpus: [] },
      INITIAL_RUN_STATE,
      { ...CONFIG, evalEvery: 0, concurrency: 32 },
    );
    expect(peak()).toBe(2);
  });
});
