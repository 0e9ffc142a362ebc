import type { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { ScriptedChatModel, type ChatScript } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type RunState } from '../../src/core/loop/epoch.ts';

/** Figures of the epoch-overhead benchmark. */
export interface EpochFigures {
  epochs: number;
  medianEpochMs: number;
  medianOutsideModelShare: number;
  episodesPerEpoch: number;
  stepsPerEpoch: number;
}

const KEY_ENV = readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8');

/**
 * Epoch overhead with a zero-latency scripted model: 4 environments, 4 + 4 plays, up to 12
 * turns (unhinted plays never win, so they run all 12 turns). Everything measured is the loop,
 * the prompts, parsing, scoring and the real Pyodide sandbox.
 */
export async function measureEpochOverhead(
  epochs = 5,
  createSandbox: () => PyodideSandboxRuntime = () => createNodeSandboxRuntime(),
): Promise<EpochFigures> {
  const keyEnvReply = (JSON.parse(KEY_ENV) as ChatScript).rules[0]!.replies[0]!;
  const script: ChatScript = {
    name: 'bench',
    rules: [
      { purpose: 'designer', replies: [keyEnvReply] },
      { purpose: 'hint', replies: ['Use the key that glows. Answer as \\boxed{name}.'] },
      { purpose: 'agent', in: 'all', match: 'The (\\w+) key glows[\\s\\S]*HINT:', replies: ['\\boxed{$1}'] },
      { purpose: 'agent', replies: ['\\boxed{door}'] },
    ],
  };
  const config: Config = {
    ...DEFAULT_CONFIG,
    seed: 3,
    slotsPerEpoch: 4,
    playsPerArm: 4,
    maxTurns: 12,
    useCorpus: false,
  };
  const sandbox = createSandbox();
  await sandbox.warm();
  const model = new ScriptedChatModel(script);
  let state: RunState = INITIAL_RUN_STATE;
  const totals: number[] = [];
  const shares: number[] = [];
  let episodes = 0;
  let steps = 0;
  for (let i = 0; i < epochs; i++) {
    const result = await runEpoch({ model, sandbox, corpus: [], now: () => performance.now() }, state, config);
    state = result.nextState;
    totals.push(result.timings.totalMs);
    shares.push(result.timings.sandboxMs / result.timings.totalMs);
    episodes = result.episodes.length;
    steps = result.episodes.reduce((n, e) => n + e.turns.length, 0);
  }
  await sandbox.close();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  return {
    epochs,
    medianEpochMs: median(totals),
    medianOutsideModelShare: median(shares),
    episodesPerEpoch: episodes,
    stepsPerEpoch: steps,
  };
}
