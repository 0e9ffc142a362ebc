// The app against an OpenAI-compatible server, in Debian's Chromium: a Node server on 127.0.0.1
// that speaks /v1/chat/completions with streaming and CORS (as llama.cpp's server does) answers
// with the scripted session of the command-line test. The page is cross-origin isolated, so this
// also shows that isolation leaves the server path working. Same settings as the CLI test, same
// numbers; a server error fails the run with the server's reason, and Start runs it again. The
// run then leaves through the Runs view's exports and arrives in a fresh browser profile.
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { settingsUrl } from '../../src/app/new-run/share-settings.ts';
import { freeRunId } from '../../src/adapters/store/import-run.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { EpochMetrics } from '../../src/core/records.ts';
import { FakeOpenAIServer, jsonReply, scriptedResponder } from '../adapters/llm/openai/fake-openai-server.ts';
import { screenshot, seriousViolations } from './app-helpers.ts';
import { startRig, type BrowserRig } from './harness.ts';
import { shownText } from './page-text.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
/** The settings of `spade run --seed 7 --slots 2 --plays 2 --max-turns 3 --skills logical-deduction --no-corpus` (tests/cli/run-openai.test.ts). */
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  skills: ['Logical Deduction'],
  repairMode: false,
  useMemory: true,
  useCorpus: false,
};
const MODEL = 'tiny-test-model';

let rig: BrowserRig;
let page: Page;
let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await FakeOpenAIServer.start({ cors: true });
  rig = await startRig();
  page = await rig.open('/');
  await page.setViewportSize({ width: 1280, height: 900 });
});
afterAll(async () => {
  await rig?.close();
  await server?.close();
});

/** Opens a settings link for CONFIG, connects to the server and creates a one-epoch run. */
async function createServerRun(name: string): Promise<void> {
  await page.goto(settingsUrl({ config: CONFIG }, rig.appUrl));
  await page.getByText('Settings loaded from a link').waitFor({ timeout: 30_000 });
  await page.getByLabel('Server address').fill(`${server.origin}/v1`);
  await page.getByLabel('Model name').fill(MODEL);
  await page.getByRole('button', { name: 'Use this server' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Epochs', { exact: true }).fill('1');
  await page.getByRole('button', { name: 'Create run' }).click();
}

/** The committed epochs' metrics of the run called `name`, read from the app's IndexedDB. */
async function storedMetrics(name: string): Promise<EpochMetrics[]> {
  return JSON.parse(
    (await page.evaluate(`(async () => {
      const { openIndexedDbRunStore } = await import('/src/adapters/store/idb-run-store.ts');
      const store = await openIndexedDbRunStore();
      const run = (await store.listRuns()).find((r) => r.name === ${JSON.stringify(name)});
      const metrics = await store.metricsOf(run.id);
      store.close();
      return JSON.stringify(metrics);
    })()`)) as string,
  ) as EpochMetrics[];
}

/** What the command line printed for the same settings: 2/2 valid (validity 0.67), regret 0.50, win rate 0.50, designer reward 0.20, 8 episodes. */
function expectCliNumbers(metrics: EpochMetrics[]): void {
  expect(metrics).toHaveLength(1);
  expect(metrics[0]).toMatchObject({ slots: 2, validEnvironments: 2, attempts: 3, episodes: 8 });
  expect(metrics[0]!.validityRate).toBeCloseTo(2 / 3, 10);
  expect(metrics[0]!.meanRegret).toBeCloseTo(0.5, 10);
  expect(metrics[0]!.meanWinRate).toBeCloseTo(0.5, 10);
  expect(metrics[0]!.meanDesignerReward).toBeCloseTo(0.2, 10);
}

describe('a run against an OpenAI-compatible server', () => {
  it('streams from the server through the whole epoch and gets the numbers the command line gets', async () => {
    server.reset();
    server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT)));
    await createServerRun('over http');
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    await expect(page.getByTestId('epoch-row').count()).resolves.toBe(1);
    await expect(page.getByText('Settings loaded from a link').count()).resolves.toBe(0);
    expectCliNumbers(await storedMetrics('over http'));
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.length).toBeGreaterThan(8);
    expect(posts.every((r) => r.path === '/v1/chat/completions' && r.headers.origin === rig.baseUrl)).toBe(true);
    expect(
      posts.every(
        (r) => (r.body as { model: string; stream: boolean }).model === MODEL && (r.body as { stream: boolean }).stream,
      ),
    ).toBe(true);
    expect(server.requests.some((r) => r.method === 'OPTIONS')).toBe(true);
    await screenshot(page, 'live-epoch-openai');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("reads a vLLM-style server's context window, shows each role's largest prompt against it in the live view and Learn, and gets the same numbers", async () => {
    server.reset();
    const scripted = scriptedResponder(new ScriptedChatModel(SCRIPT));
    server.respondWith((body, path) =>
      path?.endsWith('/v1/models')
        ? Promise.resolve(jsonReply({ object: 'list', data: [{ id: MODEL, object: 'model', max_model_len: 32_768 }] }))
        : scripted(body, path),
    );
    await createServerRun('with a window');
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    expectCliNumbers(await storedMetrics('with a window'));
    const live = page.getByTestId('prompt-budget');
    await live.waitFor({ timeout: 30_000 });
    await expect(shownText(live)).resolves.toMatch(/Designer\s*[\d,]+ \/ 32,768[\s\S]*Agent turn\s*[\d,]+ \/ 32,768/);
    await page.getByRole('button', { name: 'Learn', exact: true }).click();
    const learn = page.getByTestId('prompt-budget').filter({ hasText: '(epoch 1)' });
    await learn.waitFor({ timeout: 30_000 });
    await expect(shownText(learn)).resolves.toMatch(/Hint\s*[\d,]+ \/ 32,768/);
    // The tests below count the stored runs: this one leaves none behind.
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete run with a window' }).click();
    await page.getByRole('button', { name: 'with a window', exact: true }).waitFor({ state: 'detached' });
  });

  it("fails the run with the server's reason and the next step, and Start runs the epoch again in full", async () => {
    server.reset();
    server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT)));
    // The first two requests ask for the context window (/v1/models, /props); the first chat request meets the error.
    server.enqueue(
      jsonReply({ data: [] }),
      jsonReply({ error: { message: 'Not Found' } }, 404),
      jsonReply({ error: { message: `model "${MODEL}" not found` } }, 404),
    );
    await createServerRun('after an error');
    await page.getByTestId('run-status').filter({ hasText: 'failed' }).waitFor({ timeout: 60_000 });
    const alert = page.getByRole('region', { name: 'Run controls' }).getByRole('alert');
    await expect(shownText(alert)).resolves.toMatch(
      new RegExp(`HTTP 404 from .*model "${MODEL}" not found.*Check baseUrl .*the model name "${MODEL}"`),
    );
    expect(await storedMetrics('after an error')).toEqual([]);
    server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT)));
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    expectCliNumbers(await storedMetrics('after an error'));
  });
});

/** Each stored run's environments (id, status, code, scores) by run name, from `target`'s IndexedDB. */
async function storedEnvironments(target: Page): Promise<Record<string, unknown[]>> {
  return JSON.parse(
    (await target.evaluate(`(async () => {
      const { openIndexedDbRunStore } = await import('/src/adapters/store/idb-run-store.ts');
      const store = await openIndexedDbRunStore();
      const byName = {};
      for (const run of await store.listRuns()) byName[run.name] = (await store.queryEnvironments(run.id)).map((e) => [e.id, e.status, e.code, e.stats]);
      store.close();
      return JSON.stringify(byName);
    })()`)) as string,
  ) as Record<string, unknown[]>;
}

/** Clicks an export button on the Runs view and returns the saved file's name and bytes. */
async function exportFromRunsView(
  format: 'pool' | 'rollouts' | 'metrics' | 'archive',
): Promise<{ name: string; bytes: Buffer }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: `Export ${format}` }).click();
  const download = await downloading;
  return { name: download.suggestedFilename(), bytes: readFileSync((await download.path())!) };
}

describe('the run leaves the tab', () => {
  it('exports rollout rows and metrics that match the run', async () => {
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await page.getByRole('button', { name: 'after an error', exact: true }).click();
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    const rollouts = await exportFromRunsView('rollouts');
    expect(rollouts.name).toMatch(/-rollouts\.jsonl$/);
    const rows = rollouts.bytes
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows)
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['role', 'messages', 'reward', 'advantage', 'group']));
    expect(new Set(rows.map((row) => row.role))).toEqual(new Set(['designer', 'agent']));
    const metrics = await exportFromRunsView('metrics');
    const [header, ...lines] = metrics.bytes.toString('utf8').trim().split('\n');
    expect(lines).toHaveLength(1);
    const columns = header!.split(',');
    const values = lines[0]!.split(',');
    expect(Number(values[columns.indexOf('validEnvironments')])).toBe(2);
    expect(Number(values[columns.indexOf('meanRegret')])).toBeCloseTo(0.5, 10);
  });

  it('exports a full archive that a fresh browser profile imports with the same environments', async () => {
    const archive = await exportFromRunsView('archive');
    expect(Object.keys(unzipSync(new Uint8Array(archive.bytes))).length).toBeGreaterThan(1);
    const other = await rig.open('/');
    try {
      await other.getByRole('button', { name: 'Runs', exact: true }).click();
      await other
        .getByLabel('Files')
        .setInputFiles({ name: archive.name, mimeType: 'application/zip', buffer: archive.bytes });
      const report = other.getByTestId('import-report');
      await report.waitFor({ timeout: 120_000 });
      await expect(shownText(report)).resolves.toMatch(/Imported archive: 2 of 2 kept as a new run/);
      const imported = await storedEnvironments(other);
      expect(Object.keys(imported)).toEqual(['after an error']);
      expect(imported['after an error']).toHaveLength(2);
      expect(imported['after an error']).toEqual((await storedEnvironments(page))['after an error']);
    } finally {
      await other.context().close();
    }
  });

  it('deletes a run and everything it produced, leaving the other run whole', async () => {
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete run over http' }).click();
    await page.getByRole('button', { name: 'over http', exact: true }).waitFor({ state: 'detached' });
    const left = await storedEnvironments(page);
    expect(Object.keys(left)).toEqual(['after an error']);
    expect(left['after an error']).toHaveLength(2);
    expect(await storedMetrics('after an error')).toHaveLength(1);
  });
  it('re-imports the archive into the same browser: asks first, replaces only once confirmed, or imports under a new id', async () => {
    const archive = await exportFromRunsView('archive');
    const runs = async () =>
      (await page.evaluate(`(async () => {
      const { openIndexedDbRunStore } = await import('/src/adapters/store/idb-run-store.ts');
      const store = await openIndexedDbRunStore();
      const runs = (await store.listRuns()).map((r) => [r.id, r.name, r.epochsCompleted]);
      store.close();
      return JSON.stringify(runs);
    })()`)) as string;
    const before = JSON.parse(await runs()) as Array<[string, string, number]>;
    expect(before.map(([, name, epochs]) => [name, epochs])).toEqual([['after an error', 1]]);
    const id = before[0]![0];
    const pick = () =>
      page
        .getByLabel('Files')
        .setInputFiles({ name: archive.name, mimeType: 'application/zip', buffer: archive.bytes });
    const clash = page.getByTestId('import-clash');
    const report = page.getByTestId('import-report');

    await pick();
    await clash.waitFor({ timeout: 30_000 });
    await expect(shownText(clash)).resolves.toContain(
      `A run with id "${id}" ("after an error") is already stored here; nothing was validated or written. Import it under another id, or replace the stored run.`,
    );
    // A run id ending in a number (its random part can be all digits) is counted on from it.
    await expect(clash.getByLabel('New id').inputValue()).resolves.toBe(freeRunId(id, new Set([id])));
    page.once('dialog', (dialog) => void dialog.dismiss());
    await clash.getByRole('button', { name: 'Replace the stored run…' }).click();
    await expect(clash.isVisible()).resolves.toBe(true);
    expect(JSON.parse(await runs())).toEqual(before);
    page.once('dialog', (dialog) => void dialog.accept());
    await clash.getByRole('button', { name: 'Replace the stored run…' }).click();
    await report
      .getByText(`Imported archive: 2 of 2 kept in place of the stored run ${id}.`)
      .waitFor({ timeout: 120_000 });
    expect(JSON.parse(await runs())).toEqual(before);

    await pick();
    await clash.waitFor({ timeout: 30_000 });
    await clash.getByLabel('New id').fill('my copy');
    await clash
      .getByText('The new id cannot be used: expected a run id without spaces or control characters, saw "my copy".')
      .waitFor();
    await expect(clash.getByRole('button', { name: 'Import as a new run' }).isDisabled()).resolves.toBe(true);
    await clash.getByLabel('New id').fill('my-copy');
    await clash.getByRole('button', { name: 'Import as a new run' }).click();
    await report.getByText('Imported archive: 2 of 2 kept as a new run.').waitFor({ timeout: 120_000 });
    expect(JSON.parse(await runs())).toEqual(expect.arrayContaining([...before, ['my-copy', 'after an error', 1]]));
    expect(JSON.parse(await runs())).toHaveLength(2);
  });
});

describe('a settings link', () => {
  it("is short (only what differs from the defaults), and a broken one says why and drops the previous link's model", async () => {
    const link = settingsUrl({ config: CONFIG, epochs: 1, modelId: `openai:${server.origin}/v1#${MODEL}` }, rig.appUrl);
    expect(link.length).toBeLessThan(600);
    await page.goto(link);
    await page.getByTestId('shared-model').waitFor({ timeout: 30_000 });
    await page.goto(`${rig.appUrl.split('#')[0]}#settings=@@@`);
    await page
      .getByText(
        'This settings link cannot be used. It is damaged (it holds characters a settings link never has). Nothing was prefilled',
      )
      .waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('shared-model').count()).resolves.toBe(0);
    await expect(page.getByText('Settings loaded from a link').count()).resolves.toBe(0);
  });
});
