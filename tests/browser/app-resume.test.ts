import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startRig, type BrowserRig } from './harness.ts';
import { createDemoRun, DEMO_TEST_TIMEOUT_MS, screenshot } from './app-helpers.ts';
import { settingsUrl } from '../../src/app/new-run/share-settings.ts';
import { DEMO_MODEL_ID } from '../../src/app/models/demo-models.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { shownPattern } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  rig = await startRig();
  // Neither the pacing nor the hold between epochs is the point here: the runs go straight on.
  page = await rig.open('/', { demoSpeed: 'instant', scoreHold: 'off' });
});
afterAll(async () => {
  await rig?.close();
});

/** The stored environments and episodes of a run, read from the app's real IndexedDB. */
async function storedRun(name: string): Promise<string> {
  return (await page.evaluate(`(async () => {
    const { openIndexedDbRunStore } = await import('/src/adapters/store/idb-run-store.ts');
    const store = await openIndexedDbRunStore();
    const run = (await store.listRuns()).find((r) => r.name === ${JSON.stringify(name)});
    const envs = await store.queryEnvironments(run.id);
    const episodes = [];
    for (const env of envs) episodes.push(...(await store.episodesOf(run.id, env.id)));
    const epochs = await store.metricsOf(run.id);
    store.close();
    return JSON.stringify({ envs, episodes, epochs });
  })()`)) as string;
}

describe('a run survives a reload mid-epoch and resumes with identical results', () => {
  it(
    'reopens at the last committed epoch, says so, and continues with the same seeds',
    async () => {
      await createDemoRun(page, 'interrupted', 2);
      await page.getByTestId('epoch-row').first().waitFor({ timeout: 180_000 });
      await page.getByText(shownPattern(/Epoch 2: slots/)).waitFor({ timeout: 60_000 });
      await page.reload();
      await page.getByText(shownPattern(/interrupted during epoch 2/)).waitFor({ timeout: 30_000 });
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(1);
      await screenshot(page, 'run-interrupted');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 180_000 });
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(2);
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});

describe('the same run straight through', () => {
  it(
    'runs both epochs without a reload (a second tab on a running run: app-second-tab.test.ts)',
    async () => {
      await createDemoRun(page, 'straight', 2);
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 240_000 });
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(2);
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});

describe('a resumed run', () => {
  it('gives exactly what the uninterrupted run with the same settings gave', async () => {
    const [interrupted, straight] = [await storedRun('interrupted'), await storedRun('straight')];
    expect(JSON.parse(interrupted).envs).toHaveLength(4);
    expect(interrupted).toBe(straight);
  });
});

describe('shareable settings', () => {
  it('a settings link prefills a new run, its epochs and its model', async () => {
    const link = settingsUrl(
      {
        config: { ...DEFAULT_CONFIG, seed: 4242, playsPerArm: 3, reward: 'solve_rate' },
        epochs: 5,
        modelId: DEMO_MODEL_ID,
      },
      rig.appUrl + '?from=link',
    );
    await page.goto(link);
    await page.getByText('Settings loaded from a link (5 epochs)').waitFor({ timeout: 30_000 });
    await page
      .getByTestId('shared-model')
      .getByRole('button', { name: `Use ${DEMO_MODEL_ID}` })
      .click();
    await expect(page.getByRole('spinbutton', { name: 'Epochs', exact: true }).inputValue()).resolves.toBe('5');
    await expect(page.getByText(`Model: ${DEMO_MODEL_ID}`).count()).resolves.toBe(1);
    await expect(page.getByRole('spinbutton', { name: /^Seed(?!s)/ }).inputValue()).resolves.toBe('4242');
    await expect(
      page.getByRole('spinbutton', { name: /^Unhinted plays per rollout \(K\)/ }).inputValue(),
    ).resolves.toBe('3');
    await expect(page.getByRole('combobox', { name: /^Designer reward/ }).inputValue()).resolves.toBe('solve_rate');
  });
});

describe('a view chosen while the app still loads', () => {
  it('is kept when the database answers late, not replaced by the last run', async () => {
    // A slow disk: every IndexedDB open of this context's later pages succeeds 3 s late.
    await page.context().addInitScript(() => {
      const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
        const request = open.apply(this, args);
        const listen = request.addEventListener.bind(request);
        request.addEventListener = ((
          type: string,
          listener: (event: Event) => void,
          options?: AddEventListenerOptions,
        ) =>
          listen(
            type,
            type === 'success'
              ? (event: Event) => void setTimeout(() => listener.call(request, event), 3000)
              : listener,
            options,
          )) as typeof request.addEventListener;
        return request;
      };
    });
    await page.goto(rig.appUrl);
    await expect(page.evaluate(() => localStorage.getItem('spade-lab-last-run'))).resolves.not.toBeNull();
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await expect(page.getByTestId('python-status').count()).resolves.toBe(0);
    await page.getByTestId('python-status').waitFor({ timeout: 30_000 });
    await page.getByRole('heading', { name: 'Runs', level: 2 }).waitFor({ timeout: 10_000 });
    await expect(page.getByRole('button', { name: 'Runs', exact: true }).getAttribute('aria-current')).resolves.toBe(
      'page',
    );
  });
});
