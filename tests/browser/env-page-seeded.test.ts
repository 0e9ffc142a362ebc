// The environment page in real Chromium on a seeded run whose featured environment is a good
// fixture with real episodes: replay step by step (both arms side by side), play it yourself to a
// win with the fixture's winning line, edit and re-validate (a syntax error, then the stored code
// again), a hanging step during your play, memory links and the grounding document; axe in both themes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../fixtures/env-fixtures.ts';
import { screenshot, seriousViolations } from './app-helpers.ts';
import { LADDER } from './explorer-fixtures.ts';
import type { BrowserRig } from './harness.ts';
import { preText, shownPattern, shownText, shownTexts } from './page-text.ts';
import { openSeededRun } from './seeded-run.ts';

const EPOCHS = 5;
const ENV = 'e0004-s00';
let rig: BrowserRig;
let page: Page;

beforeAll(async () => {
  ({ rig, page } = await openSeededRun('run-env-page', EPOCHS));
  await page.getByRole('button', { name: 'Explorer' }).click();
  await page.getByLabel('Epoch').selectOption({ label: `Epoch ${EPOCHS}` });
  await page
    .getByTestId('explorer-status')
    .filter({ hasText: shownPattern(/^20 environments/) })
    .waitFor();
  await page.getByRole('button', { name: ENV, exact: true }).click();
  await page.getByRole('heading', { name: `Environment ${ENV}` }).waitFor();
}, 300_000);
afterAll(() => rig?.close());

const side = (arm: 'without' | 'with') => page.getByRole('article', { name: `Play 1 ${arm} the hint` });

describe('environment page', () => {
  it('replays an episode step by step, without and with the hint side by side', async () => {
    await expect(shownText(page.getByTestId('replay-position'))).resolves.toBe('Turn 0 of 6');
    await expect(preText(side('with').locator('pre'))).resolves.toContain(
      '\n\nHINT: Multiplying late gets you further',
    );
    await expect(preText(side('without').locator('pre'))).resolves.not.toContain('HINT:');
    const forward = page.getByRole('button', { name: 'Step forward' });
    await forward.click();
    await expect(shownText(side('without').getByTestId('replay-action'))).resolves.toBe('\\boxed{C}');
    await expect(shownText(side('with').getByTestId('replay-action'))).resolves.toBe(LADDER.winning[0]);
    await forward.click();
    await forward.click();
    await expect(shownText(side('with').getByTestId('replay-action'))).resolves.toBe(LADDER.winning[2]);
    await expect(
      side('with')
        .getByText(shownPattern(/reward 1 · terminated/))
        .count(),
    ).resolves.toBe(1);
    await expect(side('with').getByText('Target reached!', { exact: false }).count()).resolves.toBe(1);
    await forward.click();
    await expect(shownText(side('with').getByTestId('replay-turn'))).resolves.toBe(
      'Turn 3 of 3 (this play ended earlier)',
    );
    await expect(shownText(side('without').getByTestId('replay-turn'))).resolves.toBe('Turn 4 of 6');
    await page.getByRole('button', { name: 'Step back' }).click();
    await expect(shownText(side('without').getByTestId('replay-turn'))).resolves.toBe('Turn 3 of 6');
    await screenshot(page, 'env-page-replay');
  });

  it("plays it yourself to a win on the agent's seed, with the hint, beside the agent's returns", async () => {
    await page.getByLabel('Seed to play').selectOption(String(LADDER.seed));
    await page.getByLabel('Play with the hint').check();
    await page.getByRole('button', { name: 'Start playing' }).click();
    const yours = page.getByRole('list', { name: 'Your play' });
    await yours.getByText('HINT: Multiplying late gets you further', { exact: false }).waitFor({ timeout: 60_000 });
    const input = page.getByLabel('Your action');
    await input.fill('A');
    await page.getByRole('button', { name: 'Wrap in \\boxed{}' }).click();
    await expect(input.inputValue()).resolves.toBe('\\boxed{A}');
    await input.press('Enter');
    await yours.getByText('Turn 1: you sent \\boxed{A}', { exact: false }).waitFor();
    await input.fill(LADDER.winning[1]!);
    await page.getByRole('button', { name: 'Send' }).click();
    await yours.getByText('Turn 2:', { exact: false }).waitFor();
    await input.fill(`I double now: ${LADDER.winning[2]}`);
    await input.press('Enter');
    await page.getByText('The episode is over after 3 turns: your return is 1.00.').waitFor();
    await expect(shownText(page.getByTestId('your-return'))).resolves.toBe('1.00');
    const versus = page.getByRole('table', { name: `Returns on seed ${LADDER.seed}` });
    await expect(shownText(versus.getByRole('row', { name: /Agent with the hint/ }))).resolves.toContain('1.00');
    await expect(shownText(versus.getByRole('row', { name: /Agent without the hint/ }))).resolves.toContain('0.00');
    await expect(versus.getByRole('row', { name: /You \(with the hint\)/ }).count()).resolves.toBe(1);
    await screenshot(page, 'env-page-play-yourself');
  });

  it('edits the code and re-validates: a syntax error with its stage and code, then valid again', async () => {
    const editor = page.getByRole('textbox', { name: `Code of ${ENV} (editable)` });
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('\nthis is not python(\n');
    await page.getByRole('heading', { name: 'Code (edited)' }).waitFor();
    await page.getByRole('button', { name: 'Validate' }).click();
    const result = page.getByTestId('validation-result');
    await result.getByText('Invalid at stage', { exact: false }).waitFor({ timeout: 60_000 });
    await expect(shownTexts(result.locator('code'))).resolves.toEqual(['load', 'syntax_error']);
    await expect(shownText(result)).resolves.toMatch(
      /Expected valid Python 3 source\. Saw SyntaxError: .* at line \d+/,
    );
    await expect(result.getByText('load: failed', { exact: false }).count()).resolves.toBe(1);
    await screenshot(page, 'env-page-validation-error');
    await page.getByRole('button', { name: 'Reset to the stored code' }).click();
    await page.getByRole('heading', { name: 'Code', exact: true }).waitFor();
    // The verdict was about the edited code: it goes with it.
    expect(await shownText(result)).toBe('');
    await page.getByRole('button', { name: 'Validate' }).click();
    await result.getByText('Valid: class NumberLadderEnv', { exact: false }).waitFor({ timeout: 60_000 });
  });

  it('a step that hangs in your play is stopped with a clear message', async () => {
    const editor = page.getByRole('textbox', { name: `Code of ${ENV} (editable)` });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(readEnv('broken', 'hang_step.py'));
    await page.getByRole('heading', { name: 'Code (edited)' }).waitFor();
    await page.getByLabel('Play with the hint').uncheck();
    await page.getByRole('button', { name: 'Start again' }).click();
    await page
      .getByRole('list', { name: 'Your play' })
      .getByText('Guess the hidden digit', { exact: false })
      .waitFor({ timeout: 60_000 });
    await page.getByLabel('Your action').fill('\\boxed{3}');
    await page.getByLabel('Your action').press('Enter');
    const alert = page.getByRole('alert');
    await alert.waitFor({ timeout: 60_000 });
    await expect(shownText(alert)).resolves.toBe(
      "The environment did not answer within 2000 ms (step_timeout), so the sandbox stopped it. An agent's play ends here the same way and, as in SPADE, scores nothing: an unhinted play is retried once and then dropped, a hinted one counts 0.",
    );
    await expect(shownText(page.getByTestId('your-return'))).resolves.toBe('failed: no return');
    await page.getByRole('button', { name: 'Reset to the stored code' }).click();
  });

  it('links the memory the designer was shown, and shows the grounding document', async () => {
    const provenance = page.getByRole('region', { name: 'Where it came from' });
    await provenance.getByText('Document mathematical-reasoning-01').click();
    await provenance.getByText('Clock Arithmetic and Residues').waitFor();
    await expect(shownText(page.getByTestId('in-memory'))).resolves.toMatch(
      /In memory now, as win rate 0\.00 .* and regret 1\.00/,
    );
    await page.getByRole('button', { name: 'e0003-s01' }).click();
    await page.getByRole('heading', { name: 'Environment e0003-s01' }).waitFor();
    await page.getByRole('button', { name: `Back to ${ENV}` }).click();
    await page.getByRole('heading', { name: `Environment ${ENV}` }).waitFor();
  });

  it('has no serious accessibility violations, light and dark, and fits a tablet', async () => {
    await page.getByText('Code, prompt and reply of attempt 1').click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await page.setViewportSize({ width: 768, height: 1024 });
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'env-page-dark-tablet');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Back to the explorer' }).click();
    await page
      .getByTestId('explorer-status')
      .filter({ hasText: shownPattern(/first rows in/) })
      .waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await screenshot(page, 'explorer-dark-tablet');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
