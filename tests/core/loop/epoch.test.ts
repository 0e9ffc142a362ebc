import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import type { SpadeEvent } from '../../../src/core/loop/events.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
const CONFIG: Config = {
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

let sandbox: PyodideSandboxRuntime;
let result: EpochResult;
const events: SpadeEvent[] = [];
const requests: ChatRequest[] = [];

beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  const scripted = new ScriptedChatModel(SCRIPT);
  const model = { id: scripted.id, complete: (r: ChatRequest) => (requests.push(r), scripted.complete(r)) };
  result = await runEpoch({ model, sandbox, corpus: [], emit: (e) => events.push(e) }, INITIAL_RUN_STATE, CONFIG);
});
afterAll(() => sandbox.close());

describe('one epoch, scripted model, real Pyodide: the agent wins only with the hint', () => {
  it('designs two environments, rejecting the garbage attempt with its reason', () => {
    const [key, door] = result.environments;
    expect(key).toMatchObject({ id: 'e0000-s00', status: 'valid', skill: 'Logical Deduction' });
    expect(key!.attempts).toHaveLength(1);
    expect(door).toMatchObject({ id: 'e0000-s01', status: 'valid' });
    expect(door!.attempts.map((a) => [a.validation.ok, a.validation.stage, a.validation.code])).toEqual([
      [false, 'extract', 'no_code_block'],
      [true, null, null],
    ]);
    expect(key!.code).toContain('class GlowKeyEnv');
    expect(key!.code).not.toContain('<think>');
  });

  it('parses the hints (label stripped)', () => {
    expect(result.environments.map((e) => e.hint)).toEqual([
      'Pick the key that glows. Answer as \\boxed{name}.',
      'The password is the thing you stand before.',
    ]);
  });

  it('plays K seeds per arm on the same seeds, hint appended once to the first observation', () => {
    const key = result.episodes.filter((e) => e.envId === 'e0000-s00');
    expect(key.map((e) => [e.arm, e.index])).toEqual([
      ['nohint', 0],
      ['nohint', 1],
      ['hint', 0],
      ['hint', 1],
    ]);
    expect(key[0]!.seed).toBe(key[2]!.seed);
    expect(key[1]!.seed).toBe(key[3]!.seed);
    expect(key[0]!.seed).not.toBe(key[1]!.seed);
    expect(key[2]!.firstObservation).toMatch(/glows\. Try a key with \\boxed\{name\}\.\n\nHINT: Pick the key/);
    expect(key[2]!.messages.filter((m) => m.content.includes('HINT:'))).toHaveLength(1);
    expect(key.map((e) => [e.turns.length, e.return])).toEqual([
      [3, 0],
      [3, 0],
      [1, 1],
      [1, 1],
    ]);
    expect(key[2]!.turns[0]!.action).toMatch(/^\\boxed\{(amber|cobalt|jade)\}$/);
    expect(key[0]!.turns[2]).toMatchObject({ truncated: true, terminated: false });
  });

  it('computes regret, win rate and the blend reward exactly', () => {
    const [key, door] = result.environments.map((e) => e.stats!);
    expect(key).toMatchObject({
      rHint: 1,
      rNoHint: 0,
      regret: 1,
      winRate: 0,
      fractionWon: 0,
      hung: false,
      turnsToWin: null,
    });
    expect(key!.designerReward).toBeCloseTo(0.4, 12);
    expect(door).toMatchObject({
      rHint: 1,
      rNoHint: 1,
      regret: 0,
      winRate: 1,
      fractionWon: 1,
      designerReward: 0,
      turnsToWin: 1,
    });
  });

  it('computes agent advantages over unhinted plays only, and designer advantages with the scale', () => {
    const adv = (envId: string) => result.episodes.filter((e) => e.envId === envId).map((e) => e.advantage);
    expect(adv('e0000-s00')).toEqual([0, 0, 0, 0]);
    expect(adv('e0000-s01')).toEqual([0, 0, 0, 0]);
    expect(result.metrics.designerScale).toBe(2);
    expect(result.environments[0]!.stats!.designerAdvantage).toBeCloseTo(0.4, 12);
    expect(result.environments[1]!.stats!.designerAdvantage).toBeCloseTo(-0.4, 12);
    expect(result.environments.map((e) => e.stats!.designerGroupSize)).toEqual([2, 2]);
  });

  it('writes memory and metrics, and emits rollout rows for both roles', () => {
    expect(result.nextState.epoch).toBe(1);
    expect(result.nextState.memory.map((m) => [m.envId, m.winRate, m.regret])).toEqual([
      ['e0000-s00', 0, 1],
      ['e0000-s01', 1, 0],
    ]);
    expect(result.metrics).toMatchObject({ slots: 2, validEnvironments: 2, attempts: 3, episodes: 8 });
    expect(result.metrics.validityRate).toBeCloseTo(2 / 3, 12);
    expect(result.rollouts.filter((r) => r.role === 'designer').map((r) => r.group)).toEqual([
      'epoch0:Logical Deduction',
      'epoch0:Logical Deduction',
    ]);
    const agentRows = result.rollouts.filter((r) => r.role === 'agent');
    expect(agentRows).toHaveLength(4);
    expect(agentRows.every((r) => r.messages.every((m) => !m.content.includes('HINT:')))).toBe(true);
    const keyRow = agentRows.find((r) => r.envId === 'e0000-s00')!;
    expect(keyRow.messages.filter((m) => m.role === 'assistant')).toHaveLength(3);
    expect(keyRow.messages.every((m) => (m.role === 'assistant' ? m.weight === 1 : m.weight === undefined))).toBe(true);
    const designerRow = result.rollouts.find((r) => r.role === 'designer' && r.envId === 'e0000-s00')!;
    expect(designerRow.messages.at(-1)).toMatchObject({ role: 'assistant', weight: 1 });
    expect(designerRow.messages.at(-1)!.content).toContain('class GlowKeyEnv');
  });

  it('passes a seed on every model call and keeps agent prompts prefix-stable', () => {
    expect(requests.every((r) => Number.isInteger(r.seed))).toBe(true);
    const agent = requests.filter((r) => r.purpose === 'agent');
    for (let i = 1; i < agent.length; i++) {
      const [prev, next] = [agent[i - 1]!.messages, agent[i]!.messages];
      if (next.length > prev.length) expect(next.slice(0, prev.length)).toEqual(prev);
    }
  });

  it('emits typed events for every stage in order', () => {
    const types = events.map((e) => e.type).filter((t) => t !== 'token');
    expect(types[0]).toBe('epoch_started');
    expect(types.at(-1)).toBe('epoch_completed');
    expect(types.filter((t) => t === 'validated')).toHaveLength(3);
    expect(types.filter((t) => t === 'episode')).toHaveLength(8);
    expect(types.indexOf('hinted')).toBeGreaterThan(types.lastIndexOf('validated'));
    expect(types.indexOf('scored')).toBeGreaterThan(types.lastIndexOf('episode'));
    expect(events.some((e) => e.type === 'token' && e.source.purpose === 'agent')).toBe(true);
  });

  it("says when each attempt's reply is complete, before its validation, and gives every score the epoch's designer scale with its parts", () => {
    const design = events
      .filter((e) => e.type === 'design_started' || e.type === 'design_replied' || e.type === 'validated')
      .map((e) => `${e.type}:${'slot' in e ? e.slot : ''}:${'attempt' in e ? e.attempt : ''}`);
    for (const started of design.filter((d) => d.startsWith('design_started'))) {
      const [, slot, attempt] = started.split(':');
      const at = (type: string) => design.indexOf(`${type}:${slot}:${attempt}`);
      expect(at('design_replied')).toBeGreaterThan(at('design_started'));
      expect(at('validated')).toBeGreaterThan(at('design_replied'));
    }
    const scales = events.flatMap((e) => (e.type === 'scored' ? [e.scale] : []));
    expect(scales).toHaveLength(2);
    // Two environments, two unhinted plays each on rollout 0: N_agent = 4, not one environment's K = 2.
    for (const scale of scales)
      expect(scale).toEqual({ agentPlays: 4, designs: 2, rollouts: 1, scale: result.metrics.designerScale });
    expect(result.metrics.designerScale).toBe(2);
  });
});
