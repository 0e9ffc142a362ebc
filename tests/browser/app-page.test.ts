import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { shownPattern, shownText } from './page-text.ts';

let rig: BrowserRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('app page', () => {
  it('says what the app is, starts Python when the new-run form opens (not at load) with an estimate, and validates the example environment in the sandbox', async () => {
    const page = await rig.open('/');
    await expect(shownText(page.getByRole('heading', { level: 1 }))).resolves.toBe('SPADE Lab');
    // The app's tests drive the production build (the tier's shared server serves it), not the dev app.
    expect(page.url()).toBe(rig.appUrl);
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll('script[src]')].map((s) => new URL((s as HTMLScriptElement).src).pathname),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(
      scripts.every((path) => /^\/spade-lab\/assets\/[^/]+\.js$/.test(path)),
      scripts.join(', '),
    ).toBe(true);
    // No click yet: the page has settled and Python has not started (no sandbox frame), and the header says when it will.
    const status = page.getByTestId('python-status');
    await status.getByText('Python starts when a run or an environment needs it').waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await expect(page.locator('iframe').count()).resolves.toBe(0);
    expect(await shownText(status)).toMatch(/^Python starts when a run or an environment needs it$/);
    // Opening a new run's form starts it and says so, then says it is ready and how long it took.
    await page.getByRole('button', { name: 'Model', exact: true }).click();
    await page.getByRole('button', { name: 'Start the demo' }).click();
    await status.getByText(shownPattern(/^Starting Python, about \d+ s$/)).waitFor({ timeout: 30_000 });
    expect(await shownText(status)).toMatch(/first visit: an estimate; \d+ s so far/);
    await status.getByText('Python ready').waitFor({ timeout: 120_000 });
    const took = Number((/started in ([\d.]+) s/.exec(await shownText(status)) ?? [])[1]);
    expect(took).toBeGreaterThan(0);
    const saved = Number(await page.evaluate(() => localStorage.getItem('spade-lab-python-start-ms')));
    expect(Math.abs(saved / 1000 - took)).toBeLessThan(0.1);
    await page.getByRole('button', { name: 'Sandbox' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    const result = page.getByTestId('validation-result');
    await result.getByText('Valid: CodeBreakerEnv').waitFor({ timeout: 90_000 });
    expect(await shownText(result)).toContain('determinism: passed');
  });
});
