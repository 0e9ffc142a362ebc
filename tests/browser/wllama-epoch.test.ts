// One whole SPADE epoch in Chromium with a real inference engine in both roles: the generated tiny
// GGUF on the CPU backend (wllama) designs, the real browser sandbox validates, the IndexedDB
// store commits. The tiny model writes nonsense, so every design attempt must be rejected with a
// reason; the epoch must still complete and commit, and the app's slot view must show it. A
// second epoch takes the app's example environment as the design, so the engine hints and plays.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { startRig, type BrowserRig } from './harness.ts';
import type { EpochSummary } from './pages/wllama.ts';
import { shownText } from './page-text.ts';

// One engine thread: this file tests what the engine writes, not its threads (wllama-engine.test.ts
// does). Two threads meet at a barrier for every step of every token; on a loaded 2-core machine
// each wait lasts until the other thread is scheduled again, which made sampling about five times slower.
const PAGE = '/tests/browser/pages/wllama.html?threads=1';

let rig: BrowserRig;
let page: Page;
let summary: EpochSummary;

beforeAll(async () => {
  rig = await startRig();
  page = await rig.open(PAGE);
  await page.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
  // Python boots while the model loads, as in the app, where it starts when a new run's form opens.
  await page.evaluate(() => window.wllamaTest.warmSandbox());
  await page.getByTestId('cpu-file').setInputFiles({
    name: 'spade-tiny.gguf',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(makeTinyGguf()),
  });
  await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
  summary = await page.evaluate(() =>
    window.wllamaTest.epoch({
      seed: 3,
      skills: ['Logical Deduction', 'Pattern Recognition'],
      slotsPerEpoch: 2,
      attemptsPerSlot: 1,
      playsPerArm: 1,
      hintPlays: 1,
      corpusWordBudget: 120,
      designer: { temperature: 0.6, topP: 0.95, maxTokens: 48 },
      hint: { temperature: 0.3, topP: 0.95, maxTokens: 16 },
      agent: { temperature: 0.6, topP: 0.95, maxTokens: 16 },
    }),
  );
  console.log(
    `[wllama] epoch with the CPU engine in both roles: ${summary.ms} ms; designer prompts ${summary.promptChars.join(', ')} characters`,
  );
}, 240_000);
afterAll(async () => {
  await rig?.close();
});

it('completes and commits the epoch: the store holds it', () => {
  expect(summary.epochsCompleted).toBe(1);
  expect(summary.modelId).toBe('wllama:spade-tiny.gguf');
  expect(summary.metrics).toMatchObject({
    epoch: 0,
    slots: 2,
    validEnvironments: 0,
    attempts: 2,
    validityRate: 0,
    episodes: 0,
  });
  expect(summary.eventTypes).toEqual(
    expect.arrayContaining([
      'epoch_started',
      'design_started',
      'token',
      'validated',
      'slot_rejected',
      'epoch_completed',
    ]),
  );
});

it('rejects every design attempt with a stable code and a message, after the engine really wrote a reply', () => {
  expect(summary.stored).toHaveLength(2);
  for (const env of summary.stored) {
    expect(env.status).toBe('rejected');
    expect(env.attempts).toHaveLength(1);
    const [attempt] = env.attempts;
    expect(attempt!.usage.completionTokens).toBe(48);
    expect(attempt!.usage.promptTokens).toBeGreaterThan(500);
    expect(attempt!.reply.length).toBeGreaterThan(20);
    expect(attempt!.validation.ok).toBe(false);
    expect(attempt!.validation.code).toMatch(/^[a-z_]+$/);
    expect(attempt!.validation.message!.length).toBeGreaterThan(20);
  }
  expect(summary.metrics.completionTokens).toBe(96);
});

it("shows the rejected slots and each attempt's reason in the app's slot view", async () => {
  const slots = page.locator('#epoch section.slot');
  await expect(slots.count()).resolves.toBe(2);
  for (const [index, env] of summary.stored.entries()) {
    const slot = slots.nth(index);
    await expect(shownText(slot.locator('h3'))).resolves.toMatch(
      new RegExp(`Slot ${index + 1}: ${env.skill}.*rejected after all attempts`, 's'),
    );
    await expect(shownText(slot.locator('summary').first())).resolves.toContain(
      `invalid: ${env.attempts[0]!.validation.stage}/${env.attempts[0]!.validation.code}`,
    );
  }
});

it('hints and plays a valid environment with the engine as the agent, then scores and commits', async () => {
  const played = await page.evaluate(() =>
    window.wllamaTest.epoch(
      {
        seed: 4,
        skills: ['Logical Deduction'],
        slotsPerEpoch: 1,
        attemptsPerSlot: 1,
        playsPerArm: 1,
        hintPlays: 1,
        maxTurns: 3,
        hint: { temperature: 0.3, topP: 0.95, maxTokens: 16 },
        agent: { temperature: 0.6, topP: 0.95, maxTokens: 16 },
      },
      'example',
    ),
  );
  console.log(`[wllama] epoch with the engine as hint writer and agent: ${played.ms} ms`);
  expect(played.epochsCompleted).toBe(1);
  expect(played.metrics).toMatchObject({ validEnvironments: 1, episodes: 2 });
  const [env] = played.stored;
  expect(env!.status).toBe('valid');
  expect(env!.hintReply!.length).toBeGreaterThan(0);
  expect(env!.stats).not.toBeNull();
  expect(played.episodes.map((e) => e.arm).sort()).toEqual(['hint', 'nohint']);
  for (const episode of played.episodes) {
    expect(episode.error).toBeNull();
    expect(episode.turns).toHaveLength(3);
    expect(episode.usage.completionTokens).toBe(48);
    for (const turn of episode.turns) expect(turn.reply.length).toBeGreaterThan(0);
  }
  await page.locator('#epoch section.slot h3').getByText('scored').waitFor();
}, 180_000);
