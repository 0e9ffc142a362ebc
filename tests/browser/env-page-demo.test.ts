// The explorer and the environment page on a real demo run made through the UI (one epoch of the
// bundled scripted demo): the run's environments listed; re-scoring an environment with the run's
// model reproduces its stored scores (same model, same seeds); playing it yourself with the
// agent's own winning line on the same seed gives the agent's return.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations } from './app-helpers.ts';
import { openApp, type BrowserRig } from './harness.ts';
import { asShown, shownPattern, shownText } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
  await page.getByRole('button', { name: 'Start the demo' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Start the demo' }).click();
  await page.getByLabel('Epochs', { exact: true }).fill('1');
  // Two slots: the explorer and the environment page are the point, not the demo's games.
  await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
  const started = Date.now();
  await page.getByRole('button', { name: 'Create run' }).click();
  await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 300_000 });
  console.log(`demo epoch finished in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}, 360_000);
afterAll(() => rig?.close());

const cells = async (index: number) =>
  (
    await page.$$eval(
      'tr[data-testid="explorer-row"]',
      (trs, i) => trs.map((tr) => tr.children[i]!.textContent!),
      index,
    )
  ).map(asShown);

describe('explorer and environment page on the demo run', () => {
  it("lists the epoch's environments, sorted by regret on request", async () => {
    await page.getByRole('button', { name: 'Explorer' }).click();
    await page
      .getByTestId('explorer-status')
      .filter({ hasText: shownPattern(/^2 environments · first rows in/) })
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Regret' }).click();
    await page
      .getByTestId('explorer-status')
      .filter({ hasText: shownPattern(/first rows in/) })
      .waitFor();
    const ids = await cells(0);
    // Columns: environment, class, skill, epoch, status, win rate, regret, ...
    const statuses = await cells(4);
    const regrets = await cells(6);
    console.log(
      `demo environments by regret: ${ids.map((id, i) => `${id} ${statuses[i]} regret ${regrets[i]}`).join('; ')}`,
    );
    expect(ids).toHaveLength(2);
    expect(statuses[0]).toBe('valid');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("re-scores the top environment with the run's model and reproduces its stored scores", async () => {
    const top = (await cells(0))[0]!;
    await page.getByRole('button', { name: top, exact: true }).click();
    await page.getByRole('heading', { name: `Environment ${top}` }).waitFor();
    const started = Date.now();
    await page.getByRole('button', { name: 'Re-score with the current model' }).click();
    const table = page.getByRole('table', { name: /^Re-scored with scripted:spade-lab-demo/ });
    await table.waitFor({ timeout: 120_000 });
    console.log(`re-score of ${top} (4 + 4 plays with the demo model) took ${Date.now() - started} ms`);
    const rows = (
      await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!)))
    ).map((row) => row.map(asShown));
    expect(rows.map((r) => r[0])).toEqual(['r_nohint', 'r_hint', 'regret', 'win rate', 'designer reward (blend)']);
    for (const [name, stored, now] of rows) expect(now, name).toBe(stored);
    await screenshot(page, 'env-page-demo-rescored');
  });

  it("plays it yourself with the agent's hinted line on the same seed and gets the agent's return", async () => {
    const options = await page
      .getByLabel('Episode to replay')
      .locator('option')
      .evaluateAll((els) => els.map((o) => [(o as HTMLOptionElement).value, o.textContent!]));
    const withHint = options.map(([value, text]) => ({
      value: value!,
      seed: /seed (\d+)/.exec(asShown(text!))![1]!,
      ret: Number(/, (-?[\d.]+) with the hint/.exec(asShown(text!))![1]),
    }));
    const best = withHint.sort((a, b) => b.ret - a.ret)[0]!;
    expect(best.ret).toBeGreaterThan(0);
    await page.getByLabel('Episode to replay').selectOption(best.value);
    const hinted = page.getByRole('article', { name: /with the hint$/ });
    const actions: string[] = [];
    while (await page.getByRole('button', { name: 'Step forward' }).isEnabled()) {
      await page.getByRole('button', { name: 'Step forward' }).click();
      const turn = await shownText(hinted.getByTestId('replay-turn'));
      if (turn!.includes('ended earlier')) break;
      actions.push(await shownText(hinted.getByTestId('replay-action')));
    }
    expect(actions.length).toBeGreaterThan(0);
    await page.getByLabel('Seed to play').selectOption(best.seed);
    await page.getByLabel('Play with the hint').check();
    await page.getByRole('button', { name: 'Start playing' }).click();
    const input = page.getByLabel('Your action');
    for (const [i, action] of actions.entries()) {
      await input.fill(action);
      await input.press('Enter');
      await page
        .getByRole('list', { name: 'Your play' })
        .getByText(`Turn ${i + 1}: you sent`, { exact: false })
        .waitFor({ timeout: 30_000 });
    }
    await page.getByText(shownPattern(/The episode is over after \d+ turns?: your return is/)).waitFor();
    await expect(shownText(page.getByTestId('your-return'))).resolves.toBe(best.ret.toFixed(2));
    console.log(
      `played ${actions.length} turns on seed ${best.seed} with the hint: return ${best.ret.toFixed(2)}, as the agent`,
    );
    await screenshot(page, 'env-page-demo-play-yourself');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
