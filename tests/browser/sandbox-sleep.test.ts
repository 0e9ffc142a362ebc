// `time.sleep` in the real browser sandbox (the seal shared with the Node sandbox): a short sleep
// waits and returns, a long one ends as the call's timeout with the stable code, never an internal
// name (before the fix every call raised NameError: name 'can_run_sync' is not defined).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';

const PAGE = '/tests/browser/pages/sandbox.html';
const napper = (seconds: number) =>
  [
    'import time',
    '',
    'class NapEnv:',
    '    def reset(self, seed=None):',
    '        start = time.monotonic()',
    `        time.sleep(${seconds})`,
    '        return "slept %.3f" % (time.monotonic() - start), {}',
    '    def step(self, action):',
    '        return "x", 0.0, True, False, {}',
  ].join('\n');

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  rig = await startRig();
  page = await rig.open(PAGE);
  await page.waitForFunction(() => window.spadeTest !== undefined, undefined, { timeout: 60_000 });
  await page.evaluate(() => window.spadeTest.startRuntime({ spares: 1 }));
}, 180_000);
afterAll(async () => {
  await page?.evaluate(() => window.spadeTest.closeRuntime()).catch(() => undefined);
  await rig?.close();
});

describe('time.sleep in the browser sandbox', () => {
  it('a short sleep waits and returns', async () => {
    const result = await page.evaluate(
      (code) => window.spadeTest.runEnv(code, { loadTimeoutMs: 60_000, resetTimeoutMs: 10_000 }),
      napper(0.05),
    );
    expect(result).toMatchObject({ ok: true, className: 'NapEnv' });
    const slept = Number(/^slept (\d+\.\d+)$/.exec((result as { observation: string }).observation)![1]);
    expect(slept).toBeGreaterThanOrEqual(0.05);
  }, 120_000);

  it('a long sleep ends as reset_timeout', async () => {
    const result = await page.evaluate(
      (code) => window.spadeTest.runEnv(code, { loadTimeoutMs: 60_000, resetTimeoutMs: 2000 }),
      napper(3600),
    );
    expect(result).toMatchObject({ ok: false, code: 'reset_timeout' });
    expect((result as { message: string }).message).not.toMatch(/can_run_sync|NameError/);
  }, 120_000);
});
