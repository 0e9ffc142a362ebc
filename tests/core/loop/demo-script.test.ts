import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { parseCorpus } from '../../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult, type RunState } from '../../../src/core/loop/epoch.ts';

// The bundled "demo without a model" session (built by tests/fixtures/demo-envs/build_demo_script.py),
// replayed through two real epochs with the default config and the real Node sandbox.
const SCRIPT_TEXT = readFileSync(new URL('../../../public/demo/demo-script.json', import.meta.url), 'utf8');
const SCRIPT = parseChatScript(JSON.parse(SCRIPT_TEXT));
const ENV_DIR = new URL('../../fixtures/demo-envs/', import.meta.url);
const STARTER_DIR = new URL('../../../public/pools/starter/games/', import.meta.url);
const CORPUS = parseCorpus(
  readFileSync(new URL('../../../public/corpus/concepts.jsonl', import.meta.url), 'utf8'),
).docs;
const CONFIG: Config = { ...DEFAULT_CONFIG, seed: 1 };
const CATCH_ALL_AGENT = 'I cannot tell which action helps here';
const CATCH_ALL_HINT = 'Read each observation carefully';

let sandbox: PyodideSandboxRuntime;
const epochs: EpochResult[] = [];
const requests: ChatRequest[] = [];
const replies: string[] = [];

beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  const scripted = new ScriptedChatModel(SCRIPT);
  const model = {
    id: scripted.id,
    complete: async (r: ChatRequest) => {
      requests.push(r);
      const result = await scripted.complete(r);
      replies.push(result.text);
      return result;
    },
  };
  let state: RunState = INITIAL_RUN_STATE;
  for (let i = 0; i < 4; i++) {
    const result = await runEpoch({ model, sandbox, corpus: CORPUS }, state, CONFIG);
    epochs.push(result);
    state = result.nextState;
  }
});
afterAll(() => sandbox.close());

const environments = () => epochs.flatMap((e) => e.environments);
const valid = () => environments().filter((e) => e.status === 'valid');
const firstRound = () =>
  epochs
    .slice(0, 3)
    .flatMap((e) => e.environments)
    .filter((e) => e.status === 'valid');
const className = (env: ReturnType<typeof environments>[number]) => env.attempts.at(-1)!.validation.className;

describe('the demo script', () => {
  it('is named spade-lab-demo and carries every environment source verbatim', () => {
    expect(SCRIPT.name).toBe('spade-lab-demo');
    const designerReplies = SCRIPT.rules
      .filter((r) => [r.purpose].flat().includes('designer'))
      .flatMap((r) => r.replies);
    // Every game the builder designs with: its own two, the rest from the starter pool.
    const builder = readFileSync(new URL('build_demo_script.py', ENV_DIR), 'utf8');
    const files = [...builder.matchAll(/= design\(\s*"([a-z_]+\.py)"/g)].map((m) => m[1]!);
    expect(files).toHaveLength(13);
    for (const file of files) {
      const own = new URL(file, ENV_DIR);
      const code = readFileSync(existsSync(own) ? own : new URL(file, STARTER_DIR), 'utf8').trimEnd();
      expect(
        designerReplies.some((reply) => reply.includes(code)),
        `${file} is out of date in demo-script.json; rerun the builder`,
      ).toBe(true);
    }
  });

  it('has at least two different games per skill, one hint per game and catch-all rules', () => {
    for (const skill of CONFIG.skills) {
      const rule = SCRIPT.rules.find((r) => r.match?.includes(`Target skill: ${skill}:`));
      const classes = new Set(rule!.replies.map((reply) => /class (\w+Env)\b/.exec(reply)?.[1]));
      expect(classes.size, skill).toBeGreaterThanOrEqual(2);
      for (const name of classes)
        expect(
          SCRIPT.rules.some((r) => r.purpose === 'hint' && r.match?.includes(`class ${name!}`)),
          name,
        ).toBe(true);
    }
    const last = (purpose: string) => SCRIPT.rules.filter((r) => r.purpose === purpose).at(-1)!;
    expect(last('agent').match).toBeUndefined();
    expect(last('hint').match).toBeUndefined();
  });
});

describe('four epochs of the demo, default config, real Pyodide', () => {
  it('rotates two skills per epoch with two slots each; the first three epochs design twelve different games', () => {
    expect(epochs.map((e) => e.environments.length)).toEqual([4, 4, 4, 4]);
    const pair = (a: string, b: string) => [a, b, a, b];
    expect(epochs.map((e) => e.environments.map((env) => env.skill))).toEqual([
      pair('Mathematical Reasoning', 'Logical Deduction'),
      pair('Spatial Reasoning', 'Pattern Recognition'),
      pair('Optimization', 'Causal Inference'),
      pair('Mathematical Reasoning', 'Logical Deduction'),
    ]);
    expect(firstRound()).toHaveLength(12);
    expect(new Set(firstRound().map(className)).size).toBe(12);
  });

  it('shows one rejected attempt with its reason, then a valid retry', () => {
    const rejected = environments().flatMap((env) =>
      env.attempts.filter((a) => !a.validation.ok).map((a) => ({ env, a })),
    );
    expect(rejected).toHaveLength(1);
    const { env, a } = rejected[0]!;
    expect(a.validation).toMatchObject({ stage: 'probe', code: 'step_bad_return', className: 'LiarsGateEnv' });
    expect(a.validation.message).toMatch(/5-tuple/);
    expect(env.status).toBe('valid');
    expect(env.attempts.at(-1)!.validation.ok).toBe(true);
  });

  it("repairs one environment's f-string braces", () => {
    const repaired = valid().filter((env) => env.attempts.at(-1)!.validation.repairedLines.length > 0);
    expect(repaired.map(className)).toEqual(['GridRoverEnv']);
    expect(repaired[0]!.code).toContain('\\\\boxed{{direction word}}');
    expect(repaired[0]!.attempts[0]!.reply).toContain('\\\\boxed{direction word}');
  });

  it('gives every environment its own hint', () => {
    for (const env of valid()) {
      expect(env.hint, env.id).toBeTruthy();
      expect(env.hint).not.toContain(CATCH_ALL_HINT);
    }
  });

  it('plays every episode without an error or an unmatched agent request', () => {
    const episodes = epochs.flatMap((e) => e.episodes);
    expect(episodes).toHaveLength(valid().length * (CONFIG.playsPerArm + CONFIG.hintPlays));
    expect(episodes.filter((e) => e.error !== null)).toEqual([]);
    expect(replies.some((r) => r.includes(CATCH_ALL_AGENT))).toBe(false);
    expect(episodes.some((e) => e.turns.length >= 3)).toBe(true);
  });

  it('produces varied, meaningful regret and win rates', () => {
    const stats = valid().map((env) => ({ name: className(env), ...env.stats! }));
    // Solved only with the hint.
    expect(stats.some((s) => s.regret >= 0.5)).toBe(true);
    expect(stats.some((s) => s.regret === 1 && s.winRate === 0)).toBe(true);
    // Sometimes solved without the hint, depending on the seed.
    expect(stats.some((s) => s.winRate >= 0.25 && s.winRate <= 0.75)).toBe(true);
    expect(stats.some((s) => s.winRate >= 0.4 && s.winRate <= 0.6)).toBe(true);
    // Too easy and too hard.
    expect(stats.some((s) => s.winRate === 1 && s.rHint === 1)).toBe(true);
    expect(stats.some((s) => s.winRate === 0 && s.rHint === 0)).toBe(true);
    expect(new Set(stats.map((s) => s.regret)).size).toBeGreaterThanOrEqual(3);
  });

  it("shows the first epoch's environments to the designer when their skills come round again", () => {
    const firstIds = new Set(epochs[0]!.environments.map((env) => env.id));
    const shown = epochs[3]!.environments.flatMap((env) => [
      ...env.memoryShown.positives,
      env.memoryShown.negative ?? '',
    ]);
    expect(shown.some((id) => firstIds.has(id))).toBe(true);
    expect(
      epochs[1]!.environments.every(
        (env) => env.memoryShown.positives.length === 0 && env.memoryShown.negative === null,
      ),
    ).toBe(true);
  });
});
