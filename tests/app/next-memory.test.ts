import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { loadNextMemory, type NextMemory } from '../../src/app/learn/next-memory.ts';
import type { Config } from '../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../src/core/loop/epoch.ts';
import type { MemoryRecord } from '../../src/core/loop/memory.ts';
import { describeEnvironment } from '../../src/core/prompts/designer-prompt.ts';
import type { ChatRequest } from '../../src/core/ports/chat-port.ts';
import { testMeta, TEST_CONFIG } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);
const CONFIG: Config = {
  ...TEST_CONFIG,
  skills: ['Logical Deduction', 'Optimization'],
  skillsPerEpoch: 2,
  slotsPerEpoch: 3,
};

// Earlier environments the run remembers, so the selection has more candidates than it shows.
const remembered = (envId: string, skill: string, winRate: number, regret: number): MemoryRecord => ({
  envId,
  skill,
  code: `# remembered ${envId}\nclass Remembered${envId}Env: pass`,
  winRate,
  regret,
  epoch: 0,
});
const SEEDED: MemoryRecord[] = [
  ...Array.from({ length: 12 }, (_, i) => remembered(`ld${i}`, 'Logical Deduction', 0.25 + i * 0.04, i / 20)),
  ...Array.from({ length: 5 }, (_, i) => remembered(`op${i}`, 'Optimization', 0.5, i / 10)),
  remembered('easy', 'Logical Deduction', 0.95, 0),
  remembered('hard', 'Optimization', 0.05, 0),
];

/** Runs one epoch from `state` with a model that records every designer prompt, keyed by the slot's seed stream. */
async function epochWithPrompts(state: typeof INITIAL_RUN_STATE, model: ScriptedChatModel) {
  const prompts: string[] = [];
  const recording = {
    id: model.id,
    complete: (r: ChatRequest) => (
      r.purpose === 'designer' && prompts.push(r.messages.map((m) => m.content).join('\n')),
      model.complete(r)
    ),
  };
  const result = await runEpoch({ model: recording, sandbox, corpus: [] }, state, CONFIG);
  return { result, prompts };
}

describe("the designer's next-epoch memory", () => {
  it("lists exactly what the next epoch's designer prompts receive", async () => {
    const store = new MemoryRunStore(() => 0);
    await store.createRun({ ...testMeta('r'), config: CONFIG });
    const model = new ScriptedChatModel(SCRIPT);
    const first = await epochWithPrompts({ ...INITIAL_RUN_STATE, memory: SEEDED }, model);
    await store.commitEpoch('r', first.result);

    const next = (await loadNextMemory(store, 'r')) as Extract<NextMemory, { kind: 'shown' }>;
    expect(next.kind).toBe('shown');
    expect(next.epoch).toBe(1);
    expect(next.memorySize).toBe(first.result.nextState.memory.length);
    const skills = first.result.nextState.memory.map((r) => r.skill);
    expect(next.remembered).toEqual(
      [...new Set(skills)].map((skill) => ({ skill, count: skills.filter((s) => s === skill).length })),
    );
    // Every skill is active, so the slots go round-robin over the skills, continuing from epoch 1's three.
    expect(next.slots.map((s) => [s.slot, s.skill, s.envId])).toEqual([
      [0, 'Optimization', 'e0001-s00'],
      [1, 'Logical Deduction', 'e0001-s01'],
      [2, 'Optimization', 'e0001-s02'],
    ]);
    expect(next.slots.every((s) => s.positives.length === 2)).toBe(true);

    const loaded = (await store.loadRun('r'))!;
    const second = await epochWithPrompts(loaded.state, model);
    const memory = loaded.state.memory;
    for (const shown of next.slots) {
      const env = second.result.environments.find((e) => e.id === shown.envId)!;
      expect(env.memoryShown).toEqual({
        positives: shown.positives.map((p) => p.envId),
        negative: shown.negative?.envId ?? null,
      });
      const prompts = env.attempts.filter((a) => !a.repair).map((a) => a.messages.map((m) => m.content).join('\n'));
      expect(prompts.length).toBeGreaterThan(0);
      for (const prompt of prompts) {
        expect(second.prompts).toContain(prompt);
        shown.positives.forEach((p, i) => {
          const code = memory.find((r) => r.envId === p.envId)!.code;
          expect(prompt).toContain(
            `Reference ${i + 1} (skill: ${p.skill}, win rate ${p.winRate.toFixed(2)}, regret ${p.regret.toFixed(2)}):\n\`\`\`python\n${code}\n\`\`\``,
          );
        });
        expect(prompt.match(/Reference \d \(/g) ?? []).toHaveLength(shown.positives.length);
        if (shown.negative) {
          const negative = memory.find((r) => r.envId === shown.negative!.envId)!;
          // The designer never saw the id: the negative is told by its skill, class name and docstring line.
          expect(prompt).toContain(
            `Do not make another environment like ${describeEnvironment(negative.code, negative.skill)}: it was ${shown.negative.reason}`,
          );
          expect(prompt).not.toContain(`like ${shown.negative.envId}:`);
        } else expect(prompt).not.toContain('Do not make another environment like');
        const named = new Set([...shown.positives.map((p) => p.envId), shown.negative?.envId]);
        for (const other of memory.filter((r) => !named.has(r.envId)))
          expect(prompt).not.toContain(other.code.slice(0, 40));
      }
    }
    expect(next.slots.some((s) => s.negative !== null)).toBe(true);
    // Titles are the stored environments' class names; the seeded records have no stored environment.
    const className = (id: string) =>
      first.result.environments.find((e) => e.id === id)?.attempts.find((a) => a.validation.ok)?.validation.className ??
      null;
    for (const env of next.slots.flatMap((s) => [...s.positives, ...(s.negative ? [s.negative] : [])]))
      expect(env.title).toBe(className(env.envId));
  });

  it('says when the run keeps no memory or designs nothing, and null for a run not stored', async () => {
    const store = new MemoryRunStore(() => 0);
    await store.createRun({ ...testMeta('off'), config: { ...CONFIG, useMemory: false } });
    await store.createRun({ ...testMeta('pool'), fixedPool: { name: 'p', sha256: 'x', environments: [] } });
    expect(await loadNextMemory(store, 'off')).toEqual({ kind: 'off' });
    expect(await loadNextMemory(store, 'pool')).toEqual({ kind: 'fixed-pool' });
    expect(await loadNextMemory(store, 'missing')).toBeNull();
  });
});
