// The real browser sandbox runtime (opaque-origin frame + Pyodide worker) under the app's page
// CSP: validation, hard time limits with a warm spare, output limits and exits, and a page that
// stays responsive throughout. One page and one runtime for the whole file (each Pyodide boot
// costs seconds).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';
import { DEFAULT_VALIDATION } from '../../src/core/env/validate-env.ts';
import { COUNTER } from '../fixtures/counter-environment.ts';
import { startRig, type BrowserRig } from './harness.ts';
import type { SpadeTestApi } from './pages/sandbox-page.ts';

const PAGE = '/tests/browser/pages/sandbox.html';

const HUNG_STEP = `class HangEnv:
    def reset(self, seed=None):
        return "start", {}

    def step(self, action):
        while True:
            pass
`;

const HUGE_OBSERVATION = `class HugeEnv:
    def reset(self, seed=None):
        return "x" * (64 * 1024 * 1024), {}

    def step(self, action):
        return "x", 0.0, True, False, {}
`;

const EXIT_IN_RESET = `import sys

class ExitEnv:
    def reset(self, seed=None):
        sys.exit(3)

    def step(self, action):
        return "x", 0.0, True, False, {}
`;

type Report = Awaited<ReturnType<SpadeTestApi['validate']>>;

let rig: BrowserRig;
let page: Page;
let coldStartMs = 0;

/** Validates on the page and also measures wall time and the page's worst main-thread stall meanwhile. */
function validateTimed(code: string): Promise<{ report: Report; wallMs: number; maxStallMs: number }> {
  return page.evaluate(async (source) => {
    let maxStallMs = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      maxStallMs = Math.max(maxStallMs, now - last - 20);
      last = now;
    }, 20);
    const started = performance.now();
    try {
      const report = await window.spadeTest.validate(source);
      return { report, wallMs: Math.round(performance.now() - started), maxStallMs: Math.round(maxStallMs) };
    } finally {
      clearInterval(ticker);
    }
  }, code);
}

const restarts = () => page.evaluate(() => window.spadeTest.restarts());

beforeAll(async () => {
  rig = await startRig();
  page = await rig.open(PAGE);
  await page.waitForFunction(() => window.spadeTest !== undefined, undefined, { timeout: 60_000 });
  coldStartMs = await page.evaluate(() => window.spadeTest.startRuntime());
  console.log(`cold start of the first browser sandbox: ${coldStartMs} ms`);
});

afterAll(async () => {
  await page?.evaluate(() => window.spadeTest.closeRuntime()).catch(() => undefined);
  await rig?.close();
});

describe('browser sandbox runtime', () => {
  it('validates a good environment', async () => {
    const { report, wallMs } = await validateTimed(EXAMPLE_ENV);
    console.log(`example environment validated in ${wallMs} ms (stages ${JSON.stringify(report.stages)})`);
    expect(report).toMatchObject({ ok: true, code: null, className: 'CodeBreakerEnv' });
    expect(report.stages.map((s) => s.stage)).toEqual(['extract', 'load', 'probe', 'determinism']);
    expect(report.firstObservation).toContain('Guess the hidden 3-digit code');
    // Its interpreters were restored to their sealed state in the worker, not killed.
    expect(await page.evaluate(() => window.spadeTest.recycled())).toBeGreaterThan(0);
    expect(await restarts()).toBe(0);
  });

  it('kills a hung step within its time limit, restarts, and the page main thread never stalls', async () => {
    // Start-up booted the syntax interpreter and one spare, the validation took the spare and a
    // replacement booted; let it finish.
    const spare = await page.evaluate(() => window.spadeTest.waitForSpawns(3));
    console.log(`replacement spare up ${spare.waitedMs} ms after the good validation (${JSON.stringify(spare)})`);
    expect(spare).toMatchObject({ started: 3, ready: 3, failed: 0 });
    // The syntax interpreter and the one spare kept (the validated environment's interpreter was
    // restored, but the pool keeps one spare here). They are workers of one sandbox frame.
    expect(await page.evaluate(() => window.spadeTest.liveInterpreters())).toBe(2);
    expect(await page.evaluate(() => window.spadeTest.sandboxFrames())).toBe(1);
    const before = await restarts();
    const { report, wallMs, maxStallMs } = await validateTimed(HUNG_STEP);
    const failing = report.stages.find((s) => !s.ok)!;
    console.log(
      `hung step: ${report.code} at ${report.stage} after ${failing.ms} ms in that stage, ${wallMs} ms in all; worst main-thread stall ${maxStallMs} ms`,
    );
    expect(report.ok).toBe(false);
    expect(report.code).toContain('timeout');
    expect(report).toMatchObject({ code: 'step_timeout', stage: 'probe' });
    // The stage gave up at its 2 s call limit (not at the 5 s total budget, and not never).
    expect(failing.ms).toBeGreaterThanOrEqual(DEFAULT_VALIDATION.callTimeoutMs - 50);
    expect(failing.ms).toBeLessThan(DEFAULT_VALIDATION.totalTimeoutMs);
    expect(report.message).toMatch(/the sandbox was killed/);
    expect(await restarts()).toBe(before + 1);
    // The hung environment had the spare; it was killed and a new spare is starting.
    expect(await page.evaluate(() => window.spadeTest.spawns())).toMatchObject({ started: 4, failed: 0 });
    // Python spins in the worker; the page kept running its timers.
    expect(maxStallMs).toBeLessThan(1000);
  });

  it('recovers on the warm spare: the next validation succeeds right away', async () => {
    const before = await restarts();
    const { report, wallMs } = await validateTimed(EXAMPLE_ENV);
    console.log(
      `recovery: first validation after the kill took ${wallMs} ms (cold start of a sandbox: ${coldStartMs} ms)`,
    );
    expect(report).toMatchObject({ ok: true, className: 'CodeBreakerEnv' });
    expect(await restarts()).toBe(before);
    const spare = await page.evaluate(() => window.spadeTest.waitForSpawns(5));
    console.log(`the replacement spare was up ${spare.waitedMs} ms after that`);
    expect(spare).toMatchObject({ started: 5, ready: 5, failed: 0 });
  });

  it('refuses a 64 MB observation with output_too_large, without losing the sandbox', async () => {
    const before = await restarts();
    const { report, wallMs } = await validateTimed(HUGE_OBSERVATION);
    console.log(`64 MB observation: ${report.code} at ${report.stage} in ${wallMs} ms: ${report.message}`);
    expect(report).toMatchObject({ ok: false, code: 'output_too_large', stage: 'probe' });
    expect(report.message).toContain(String(64 * 1024 * 1024));
    expect(await restarts()).toBe(before);
  });

  it('reports sys.exit in reset as process_exit, without losing the sandbox', async () => {
    const before = await restarts();
    const { report } = await validateTimed(EXIT_IN_RESET);
    console.log(`sys.exit in reset: ${report.code} at ${report.stage}: ${report.message}`);
    expect(report).toMatchObject({ ok: false, code: 'process_exit', stage: 'probe' });
    expect(report.message).toContain('SystemExit 3');
    expect(await restarts()).toBe(before);
  });

  it('leaves the page responsive and the sandbox usable', async () => {
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    const button = page.getByRole('button', { name: 'Clicked 0 times' });
    await button.click();
    await page.getByRole('button', { name: 'Clicked 1 times' }).waitFor({ timeout: 2000 });
    const { report } = await validateTimed(EXAMPLE_ENV);
    expect(report.ok).toBe(true);
    // Once the replacement that started when the validation took the spare has booted: the syntax
    // interpreter plus one spare (the environment's own worker, restored, or that replacement; the
    // page's runtime keeps one, so the other is gone).
    await page.evaluate(() => window.spadeTest.waitForSpawns(0));
    expect(await page.evaluate(() => window.spadeTest.liveInterpreters())).toBe(2);
    expect(await page.evaluate(() => window.spadeTest.sandboxFrames())).toBe(1);
  });

  it('two environments sharing one interpreter in the tab each find it as they left it', async () => {
    const { observations, boots } = await page.evaluate(([code, steps]) => window.spadeTest.playSharing(code, steps), [
      COUNTER,
      3,
    ] as const);
    expect(boots).toBe(1);
    // One module global or random stream shared would interleave both counts and draws.
    for (const seen of observations)
      expect(seen.map((text) => text.split(' draw ')[0])).toEqual(['total 1', 'total 2', 'total 3']);
    expect(observations[0]).toEqual(observations[1]);
  });
});
