// Real Pyodide: an environment that leaks state between plays of one instance still scores as
// SPADE scores it, because every play gets a fresh instance; and one that keeps module state to
// tell a hinted play from an unhinted one cannot, because every play gets an interpreter of its own.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import { readEnv } from '../../fixtures/env-fixtures.ts';

let sandbox: PyodideSandboxRuntime;
beforeAll(() => {
  sandbox = createNodeSandboxRuntime();
});
afterAll(() => sandbox.close());

it('a state-leaking environment gets regret 0 and win rate 1 when every fresh instance can win', async () => {
  const code = readEnv('good', 'leaky_counter.py');
  const model = new ScriptedChatModel((r) =>
    r.purpose === 'designer'
      ? `\`\`\`python\n${code}\n\`\`\``
      : r.purpose === 'hint'
        ? 'Say win.'
        : 'I say \\boxed{win}.',
  );
  const config: Config = {
    ...DEFAULT_CONFIG,
    skills: ['Logical Deduction'],
    skillsPerEpoch: 1,
    slotsPerEpoch: 1,
    playsPerArm: 4,
    hintPlays: 4,
    rolloutsPerEpoch: 2,
    useCorpus: false,
  };
  const result = await runEpoch({ model, sandbox, corpus: [] }, INITIAL_RUN_STATE, config);
  expect(result.episodes).toHaveLength(12);
  expect(result.episodes.every((e) => e.return === 1 && !e.dropped)).toBe(true);
  expect(result.environments[0]!.stats).toMatchObject({ rHint: 1, rNoHint: 1, regret: 0, winRate: 1 });
});

it('an environment that tells the arms apart by the seeds it has seen gets regret 0 with plays one at a time', async () => {
  const code = readEnv('hostile', 'arm/seen_seeds.py');
  const model = new ScriptedChatModel((r) =>
    r.purpose === 'designer'
      ? `\`\`\`python\n${code}\n\`\`\``
      : r.purpose === 'hint'
        ? 'Say win.'
        : 'I say \\boxed{win}.',
  );
  const config: Config = {
    ...DEFAULT_CONFIG,
    skills: ['Logical Deduction'],
    skillsPerEpoch: 1,
    slotsPerEpoch: 1,
    playsPerArm: 4,
    hintPlays: 4,
    useCorpus: false,
    reward: 'regret',
  };
  {
    const result = await runEpoch({ model, sandbox, corpus: [] }, INITIAL_RUN_STATE, { ...config, concurrency: 1 });
    const won = (arm: string) => result.episodes.filter((e) => e.arm === arm).map((e) => [e.seed, e.return]);
    // The seeds hold both parities, so the forgery would show.
    expect(new Set(result.episodes.map((e) => e.seed % 2)).size).toBe(2);
    // The agent acts alike in both arms, so each seed scores the same in both: only even seeds win.
    expect(won('hint')).toEqual(won('nohint'));
    expect(result.episodes.every((e) => e.return === (e.seed % 2 === 0 ? 1 : 0))).toBe(true);
    expect(result.environments[0]!.stats!.regret).toBe(0);
  }
});
