// SPADE's inputs to the numbers it trains on (issue: fidelity), with an in-process fake sandbox
// and scripted models; each expectation is computed by hand in the comments.
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import {
  activeSkills,
  INITIAL_RUN_STATE,
  planSlots,
  runEpoch,
  type EpochResult,
} from '../../../src/core/loop/epoch.ts';
import { memoryBlock } from '../../../src/core/prompts/designer-prompt.ts';
import { parseAction } from '../../../src/core/prompts/agent-prompt.ts';
import { fakeFailure, fakeSandbox, oneStepGame, withDelays, type FakeClass } from '../../fixtures/fake-sandbox.ts';

const L = 'Logical Deduction';
const O = 'Optimization';
const BASE: Config = {
  ...DEFAULT_CONFIG,
  seed: 3,
  skills: [L, O],
  skillsPerEpoch: 2,
  slotsPerEpoch: 4,
  playsPerArm: 2,
  hintPlays: 2,
  rolloutsPerEpoch: 2,
  maxTurns: 3,
  useCorpus: false,
  useMemory: false,
  // The scripted agent below wins M on every other unhinted play it is asked for, so its plays go in schedule order.
  concurrency: 1,
};
const fence = (name: string) => `\`\`\`python\n${name}\n\`\`\``;

/** A game whose first observation names it, so the scripted agent knows which one it plays. */
const named =
  (name: string): FakeClass =>
  () => ({ ...oneStepGame(), reset: () => ({ observation: `Game ${name}. Say win.`, info: {} }) });

/**
 * A scripted model: designs come from `designs` in order; the agent wins W always, H only with the
 * hint, M with the hint and on every other unhinted play, and never wins X.
 */
function model(designs: string[], hint: (r: ChatRequest) => string = () => 'Say win.') {
  const unhinted = new Map<string, number>();
  let design = 0;
  return new ScriptedChatModel((r) => {
    if (r.purpose === 'designer' || r.purpose === 'repair') return fence(designs[design++]!);
    if (r.purpose === 'hint') return hint(r);
    const first = r.messages[0]!.content;
    const game = /Game (\w)/.exec(first)?.[1] ?? '?';
    const hinted = first.includes('HINT:');
    if (game === 'W' || (hinted && (game === 'H' || game === 'M'))) return '\\boxed{win}';
    if (game === 'M') {
      const n = unhinted.get(game) ?? 0;
      unhinted.set(game, n + 1);
      return n % 2 === 0 ? '\\boxed{win}' : '\\boxed{no}';
    }
    return '\\boxed{no}';
  });
}

const GAMES = { W: named('W'), H: named('H'), M: named('M'), X: named('X') };

async function run(config: Config, designs = ['W', 'H', 'M', 'X']): Promise<EpochResult> {
  return runEpoch({ model: model(designs), sandbox: fakeSandbox(GAMES), corpus: [] }, INITIAL_RUN_STATE, config);
}

describe('skill rotation gives every active skill several slots', () => {
  it('rotates a window of skillsPerEpoch through the skills, advancing by its size', () => {
    const six: Config = { ...DEFAULT_CONFIG, skillsPerEpoch: 3, slotsPerEpoch: 24 };
    expect(activeSkills(six, 0)).toEqual(six.skills.slice(0, 3));
    expect(activeSkills(six, 1)).toEqual(six.skills.slice(3, 6));
    expect(activeSkills(six, 2)).toEqual(six.skills.slice(0, 3));
    const counts = new Map<string, number>();
    for (const { skill } of planSlots(six, 1)) counts.set(skill, (counts.get(skill) ?? 0) + 1);
    expect([...counts.values()]).toEqual([8, 8, 8]);
  });
  it('with the tab defaults, each epoch has two skills with two slots each', () => {
    expect(planSlots(DEFAULT_CONFIG, 0).map((s) => s.skill)).toEqual([
      DEFAULT_CONFIG.skills[0],
      DEFAULT_CONFIG.skills[1],
      DEFAULT_CONFIG.skills[0],
      DEFAULT_CONFIG.skills[1],
    ]);
    expect(planSlots(DEFAULT_CONFIG, 1).map((s) => s.skill)).toEqual([
      DEFAULT_CONFIG.skills[2],
      DEFAULT_CONFIG.skills[3],
      DEFAULT_CONFIG.skills[2],
      DEFAULT_CONFIG.skills[3],
    ]);
  });
  it('with every skill active, the tab continues the round-robin across epochs; the reference restarts it at the first skill', () => {
    const [a, b, c] = ['Logical Deduction', 'Optimization', 'Spatial Reasoning'];
    const all: Config = { ...DEFAULT_CONFIG, skills: [a!, b!, c!], skillsPerEpoch: 3, slotsPerEpoch: 2 };
    // Continuing: epoch 1's slots are the 3rd and 4th of the cycle, c then a.
    expect(planSlots(all, 1).map((s) => s.skill)).toEqual([c, a]);
    expect(planSlots(all, 2).map((s) => s.skill)).toEqual([b, c]);
    const restarting: Config = { ...all, restartSkillCycle: true };
    expect([0, 1, 2].map((epoch) => planSlots(restarting, epoch).map((s) => s.skill))).toEqual([
      [a, b],
      [a, b],
      [a, b],
    ]);
    // With a rotating window the switch changes nothing: each window starts at its first skill either way.
    const rotating: Config = { ...all, skillsPerEpoch: 1 };
    expect(planSlots({ ...rotating, restartSkillCycle: true }, 1)).toEqual(planSlots(rotating, 1));
    expect(planSlots(rotating, 1).map((s) => s.skill)).toEqual([b, b]);
  });
});

describe('a run with two environments per skill: advantages and rows by hand', () => {
  it('scores W, H, M, X as computed by hand (blend)', async () => {
    const result = await run(BASE);
    const byId = Object.fromEntries(result.environments.map((e) => [e.skill + ':' + e.code.trim(), e.stats!]));
    // W: wins everything: w = 1, regret 0, blend = 0.6 * plateau(1) = 0.
    expect(byId[`${L}:W`]).toMatchObject({ rHint: 1, rNoHint: 1, regret: 0, winRate: 1, designerReward: 0 });
    // H: wins only with the hint: w = 0, regret 1, blend = 0.4.
    expect(byId[`${O}:H`]).toMatchObject({ rHint: 1, rNoHint: 0, regret: 1, winRate: 0 });
    expect(byId[`${O}:H`]!.designerReward).toBeCloseTo(0.4, 12);
    // M: unhinted win, lose | win, lose; hinted 1, 1: r_nohint 0.5, regret 0.5, w 0.5, blend 0.4 + 0.6 = 1.
    expect(byId[`${L}:M`]).toMatchObject({ rHint: 1, rNoHint: 0.5, regret: 0.5, winRate: 0.5, fractionWon: 0.5 });
    expect(byId[`${L}:M`]!.designerReward).toBeCloseTo(1, 12);
    expect(byId[`${O}:X`]).toMatchObject({ rHint: 0, regret: 0, winRate: 0, designerReward: 0 });
    // Scale: 8 unhinted plays in one rollout (4 environments x K = 2) / 4 designs x R = 2 -> 4.
    expect(result.metrics.designerScale).toBe(4);
    // Centred within the skill: L (0 and 1, mean 0.5) -> -2, +2; O (0.4 and 0, mean 0.2) -> +0.8, -0.8.
    expect(byId[`${L}:W`]!.designerAdvantage).toBeCloseTo(-2, 12);
    expect(byId[`${L}:M`]!.designerAdvantage).toBeCloseTo(2, 12);
    expect(byId[`${O}:H`]!.designerAdvantage).toBeCloseTo(0.8, 12);
    expect(byId[`${O}:X`]!.designerAdvantage).toBeCloseTo(-0.8, 12);
    expect(result.environments.every((e) => e.stats!.designerGroupSize === 2)).toBe(true);
  });

  it('forms GRPO groups and agent rows from the unhinted plays of one rollout only', async () => {
    const result = await run(BASE);
    const m = result.environments.find((e) => e.code.trim() === 'M')!.id;
    const sat = 0.5 / (0.5 + 1e-8);
    for (const rollout of [0, 1]) {
      const group = result.episodes.filter((e) => e.envId === m && e.arm === 'nohint' && e.rollout === rollout);
      expect(group.map((e) => e.advantage)).toEqual([sat, -sat]);
    }
    expect(result.episodes.filter((e) => e.arm === 'hint').every((e) => e.advantage === 0)).toBe(true);
    const agentRows = result.rollouts.filter((r) => r.role === 'agent');
    expect(agentRows).toHaveLength(16);
    expect(agentRows.some((r) => r.messages.some((msg) => msg.content.includes('HINT:')))).toBe(false);
    expect(new Set(agentRows.map((r) => r.group)).size).toBe(8);
  });

  it('learning potential: one update per skill with its mean unhinted return, read after the update', async () => {
    const result = await run({ ...BASE, reward: 'learning_potential' });
    // L: W [1,1,1,1] and M [1,0,1,0] -> mean 0.75, first update sets both averages to 0.75.
    expect(result.nextState.skillAverages).toEqual({ [L]: { fast: 0.75, slow: 0.75 }, [O]: { fast: 0, slow: 0 } });
    const reward = (code: string) => result.environments.find((e) => e.code.trim() === code)!.stats!.designerReward;
    expect(reward('W')).toBeCloseTo(0.25, 12);
    expect(reward('M')).toBeCloseTo(0.25, 12);
    expect(reward('H')).toBe(0);
    const next = await runEpoch(
      { model: model(['W', 'H', 'M', 'X']), sandbox: fakeSandbox(GAMES), corpus: [] },
      result.nextState,
      { ...BASE, reward: 'learning_potential' },
    );
    // Epoch 1 sees the same returns: slow = 0.15 * 0.75 + 0.85 * 0.75 = 0.75 again, fast likewise.
    expect(next.nextState.skillAverages[L]!.slow).toBeCloseTo(0.75, 12);
  });

  it('regret variant: r_hint minus the whole window, floored', async () => {
    const result = await run({ ...BASE, reward: 'regret' });
    const stats = (code: string) => result.environments.find((e) => e.code.trim() === code)!.stats!;
    expect(stats('M').designerReward).toBeCloseTo(0.5, 12);
    expect(stats('H').designerReward).toBe(1);
    expect(stats('W').designerReward).toBe(0);
  });
});

describe('failures as SPADE treats them', () => {
  const crashing: FakeClass = () => ({
    ...named('C')(3),
    step: () => {
      throw fakeFailure('step_exception');
    },
  });
  const hanging: FakeClass = () => ({
    ...named('T')(3),
    step: () => {
      throw fakeFailure('step_timeout');
    },
  });
  const config: Config = {
    ...BASE,
    skills: [L],
    skillsPerEpoch: 1,
    slotsPerEpoch: 1,
    rolloutsPerEpoch: 1,
    reward: 'regret',
  };
  // Validation probes step too, so the fakes fail only during play: the first load is validation.
  const afterValidation = (make: FakeClass): FakeClass => {
    let built = 0;
    return (turns) => (built++ === 0 ? named('C')(turns) : make(turns));
  };

  it('retries a crashed unhinted play once and drops it; a crashed hinted play scores 0; the environment is quarantined and scored nowhere', async () => {
    const sandbox = fakeSandbox({ C: afterValidation(crashing) });
    const result = await runEpoch({ model: model(['C']), sandbox, corpus: [] }, INITIAL_RUN_STATE, config);
    const eps = result.episodes;
    expect(eps.filter((e) => e.arm === 'nohint').map((e) => [e.id.endsWith('-failed'), e.retried, e.dropped])).toEqual([
      [true, true, true],
      [false, false, true],
      [true, true, true],
      [false, false, true],
    ]);
    expect(eps.filter((e) => e.arm === 'hint').map((e) => [e.return, e.dropped])).toEqual([
      [0, false],
      [0, false],
    ]);
    const env = result.environments[0]!;
    // Quarantined environments get no stats, reward or rows and count in no epoch figure (docs/method.md section 1).
    expect(env.stats).toBeNull();
    expect(env.status).toBe('quarantined');
    expect(env.note).toMatch(/Quarantined: 2 of its 2 unhinted plays failed/);
    expect(result.nextState.memory).toEqual([]);
    expect(result.rollouts).toEqual([]);
    expect(result.metrics).toMatchObject({
      validEnvironments: 0,
      quarantined: 1,
      meanRegret: 0,
      meanDesignerReward: 0,
    });
  });

  it('a hang skips the remaining plays (unhinted dropped, hinted 0); losing every unhinted play quarantines it', async () => {
    const sandbox = fakeSandbox({ C: afterValidation(hanging) });
    const result = await runEpoch({ model: model(['C']), sandbox, corpus: [] }, INITIAL_RUN_STATE, config);
    expect(result.episodes.map((e) => [e.arm, e.error?.code, e.dropped])).toEqual([
      ['nohint', 'step_timeout', true],
      ['nohint', 'env_hung', true],
      ['hint', 'env_hung', false],
      ['hint', 'env_hung', false],
    ]);
    // The regret reward's -0.5 for a hang applies when the hang leaves it scored (tests/core/scoring/edge-cases.test.ts).
    expect(result.environments[0]!).toMatchObject({ status: 'quarantined', stats: null });
  });

  it('loads the module afresh into an interpreter of its own for every play, at any concurrency', async () => {
    const sandbox = fakeSandbox(GAMES);
    await runEpoch({ model: model(['W']), sandbox, corpus: [] }, INITIAL_RUN_STATE, {
      ...config,
      reward: 'blend',
      concurrency: 1,
    });
    // Validation, then K = 2 unhinted and H = 2 hinted plays: 5 loads, no play renewed in another's interpreter.
    expect(sandbox.counts).toEqual({ loads: 5, renews: 0, instances: 5 });
    const wide = fakeSandbox(GAMES);
    await runEpoch(
      { model: model(['W']), sandbox: { ...withDelays(wide, () => 1), parallelism: 4 }, corpus: [] },
      INITIAL_RUN_STATE,
      { ...config, reward: 'blend', concurrency: 8 },
    );
    expect(wide.counts).toEqual({ loads: 5, renews: 0, instances: 5 });
  });
});

describe('hints: retried when unusable, never a hinted play without one', () => {
  const config: Config = { ...BASE, skills: [L], skillsPerEpoch: 1, slotsPerEpoch: 1, rolloutsPerEpoch: 1 };
  it('with reply aids, a think-only hint is asked for three times, then the hint arm is not played and regret is 0', async () => {
    const hints: ChatRequest[] = [];
    const m = model(['H'], (r) => (hints.push(r), '<think>I should say something.</think>'));
    const result = await runEpoch({ model: m, sandbox: fakeSandbox(GAMES), corpus: [] }, INITIAL_RUN_STATE, config);
    expect(hints).toHaveLength(3);
    expect(new Set(hints.map((r) => r.seed)).size).toBe(3);
    expect(result.episodes.map((e) => e.arm)).toEqual(['nohint', 'nohint']);
    expect(result.episodes.some((e) => e.firstObservation.includes('HINT:'))).toBe(false);
    const env = result.environments[0]!;
    expect(env.hint).toBeNull();
    expect(env.note).toMatch(/No usable hint after 3 requests/);
    expect(env.stats).toMatchObject({ rHint: null, regret: 0 });
  });
  it("by the reference's rules (no reply aids), a think-only reply is a hint: asked once, and every hinted play shows it whole", async () => {
    const hints: ChatRequest[] = [];
    const m = model(['H'], (r) => (hints.push(r), '<think>Say win.</think>'));
    const result = await runEpoch({ model: m, sandbox: fakeSandbox(GAMES), corpus: [] }, INITIAL_RUN_STATE, {
      ...config,
      replyAids: false,
    });
    expect(hints).toHaveLength(1);
    const hinted = result.episodes.filter((e) => e.arm === 'hint');
    expect(hinted).toHaveLength(2);
    expect(hinted.every((e) => e.firstObservation.endsWith('\n\nHINT: <think>Say win.</think>'))).toBe(true);
    expect(result.environments[0]!.hint).toBe('<think>Say win.</think>');
  });
  it('a usable second reply is taken, and every hinted play shows it', async () => {
    let n = 0;
    const m = model(['H'], () => (n++ === 0 ? '' : 'Say win.'));
    const result = await runEpoch({ model: m, sandbox: fakeSandbox(GAMES), corpus: [] }, INITIAL_RUN_STATE, config);
    const hinted = result.episodes.filter((e) => e.arm === 'hint');
    expect(hinted).toHaveLength(2);
    expect(hinted.every((e) => e.firstObservation.endsWith('\n\nHINT: Say win.'))).toBe(true);
    expect(result.environments[0]!.note).toBeNull();
  });
});

describe('designer rows, memory and actions', () => {
  it('a repaired design trains its first turn', async () => {
    const config: Config = {
      ...BASE,
      skills: [L],
      skillsPerEpoch: 1,
      slotsPerEpoch: 1,
      rolloutsPerEpoch: 1,
      repairMode: true,
    };
    const result = await runEpoch(
      { model: model(['NOPE', 'W']), sandbox: fakeSandbox(GAMES), corpus: [] },
      INITIAL_RUN_STATE,
      config,
    );
    const env = result.environments[0]!;
    expect(env.attempts.map((a) => [a.repair, a.validation.ok])).toEqual([
      [false, false],
      [true, true],
    ]);
    const row = result.rollouts.find((r) => r.role === 'designer')!;
    expect(row.messages).toEqual([
      ...env.attempts[0]!.messages,
      { role: 'assistant', content: env.attempts[0]!.reply, weight: 1 },
    ]);
    expect(row.messages.at(-1)!.content).toContain('NOPE');
  });
  it('the negative memory example is named by its class (with its skill), its code not shown', () => {
    const record = {
      envId: 'e0003-s01',
      skill: L,
      code: 'class SecretEnv:\n    def reset(self, seed=None):\n        return "hidden body", {}\n',
      winRate: 0.95,
      regret: 0,
      epoch: 3,
    };
    const text = memoryBlock({ positives: [], negative: { record, reason: 'too easy' } });
    // The designer never saw the run's ids: the class name is what it can recognise.
    expect(text).toContain(`the ${L} game SecretEnv`);
    expect(text).toContain('too easy');
    expect(text).not.toContain('e0003-s01');
    expect(text).not.toContain('hidden body');
  });
  it('an unclosed <think> before a \\boxed{} still yields the boxed action', () => {
    expect(parseAction('<think>cut off, but \\boxed{3}')).toBe('\\boxed{3}');
    expect(parseAction('<think>\\boxed{1}</think> so \\boxed{4}')).toBe('\\boxed{4}');
  });
});

it('a skill named __proto__ is an ordinary key of the per-skill metrics and averages', async () => {
  const config: Config = { ...BASE, skills: ['__proto__'], skillsPerEpoch: 1, slotsPerEpoch: 1, rolloutsPerEpoch: 1 };
  const result = await runEpoch(
    { model: model(['W']), sandbox: fakeSandbox(GAMES), corpus: [] },
    INITIAL_RUN_STATE,
    config,
  );
  expect(Object.hasOwn(result.metrics.perSkill, '__proto__')).toBe(true);
  expect(Object.getPrototypeOf(result.metrics.perSkill)).toBe(Object.prototype);
  expect(Object.hasOwn(result.nextState.skillAverages, '__proto__')).toBe(true);
});
