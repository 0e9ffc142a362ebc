import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';

let rig: BrowserRig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.close();
});

describe('app page', () => {
  it('says what the app is and validates the example environment in the sandbox', async () => {
    const page = await rig.open('/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('SPADE Lab');
    await page.getByRole('button', { name: 'Sandbox' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    const result = page.getByTestId('validation-result');
    await result.getByText('Valid: CodeBreakerEnv').waitFor({ timeout: 90_000 });
    expect(await result.textContent()).toContain('determinism: passed');
  });
});
