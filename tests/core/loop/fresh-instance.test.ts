// Real Pyodide: an environment that leaks state between plays of one instance still scores as
// SPADE scores it, because every play gets a fresh instance.
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
  const model = new ScriptedChatModel((r) => (r.purpose === 'designer' ? `\`\`\`python\n${code}\n\`\`\`` : r.purpose === 'hint' ? 'Say win.' : 'I say \\boxed{win}.'));
  const config: Config = { ...DEFAULT_CONFIG, skills: ['Logical Deduction'], skillsPerEpoch: 1, slotsPerEpoch: 1, playsPerArm: 4, hintPlays: 4, rolloutsPerEpoch: 2, useCorpus: false };
  const result = await runEpoch({ model, sandbox, corpus: [] }, INITIAL_RUN_STATE, config);
  expect(result.episodes).toHaveLength(12);
  expect(result.episodes.every((e) => e.return === 1 && !e.dropped)).toBe(true);
  expect(result.environments[0]!.stats).toMatchObject({ rHint: 1, rNoHint: 1, regret: 0, winRate: 1 });
});
