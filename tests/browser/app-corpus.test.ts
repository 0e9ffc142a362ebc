// A user's grounding corpus in the app, in Debian's Chromium: a corpus larger than localStorage
// holds (about 6 MB, as corpora in the reference format are) is imported on the Runs view, kept
// across a reload in Cache Storage, not replaced by a second import without asking, grounds the
// next run's designs (which records it), and can be dropped again. Skipped zip entries are listed.
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApp, type BrowserRig } from './harness.ts';
import { shownPattern, shownText } from './page-text.ts';

const DOCS = 2500;
const CORPUS = Array.from({ length: DOCS }, (_, i) =>
  JSON.stringify({
    id: `big-${i}`,
    text: `Document ${i} of a large corpus. ${'A sentence about numbers, order and inference. '.repeat(50)}`,
  }),
).join('\n');

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
});
afterAll(async () => {
  await rig?.close();
});

const grounded = () => page.getByText('New runs are grounded in your imported corpus.');

describe('a user corpus', () => {
  it('imports a corpus of several megabytes and keeps it across a reload', async () => {
    expect(CORPUS.length).toBeGreaterThan(6_000_000);
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await page
      .getByLabel('Files')
      .setInputFiles({ name: 'big-corpus.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(CORPUS) });
    const report = page.getByTestId('import-report');
    await report.waitFor({ timeout: 60_000 });
    await expect(shownText(report)).resolves.toContain(`${DOCS} corpus documents will ground new runs`);
    await grounded().waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await grounded().waitFor({ timeout: 30_000 });
  });

  it('a second corpus import asks before replacing it; keeping the earlier one keeps it', async () => {
    await page.getByLabel('Files').setInputFiles({
      name: 'other.jsonl',
      mimeType: 'application/x-ndjson',
      buffer: Buffer.from('{"text":"One other document."}\n{"text":""}\n'),
    });
    const report = page.getByTestId('import-report');
    await report
      .getByText(
        `You already have an imported corpus (${DOCS} documents); this import (1 documents) has not replaced it.`,
      )
      .waitFor({ timeout: 30_000 });
    await expect(shownText(report)).resolves.toContain('other.jsonl:2: no non-empty "text" or "orig_doc" field');
    await page.getByRole('button', { name: 'Keep my earlier corpus' }).click();
    await page.getByText(`Kept your earlier corpus (${DOCS} documents); the new one was not saved.`).waitFor();
  });

  it('lists every skipped zip entry with its reason', async () => {
    const zip = zipSync({ '../evil.py': strToU8('x = 1\n'), 'games/x.py': new Uint8Array([0xff, 0x0a]) });
    await page
      .getByLabel('Files')
      .setInputFiles({ name: 'bad.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    const report = page.getByTestId('import-report');
    await report.getByText('bad.zip:../evil.py', { exact: true }).waitFor({ timeout: 30_000 });
    await expect(shownText(report)).resolves.toContain(
      'expected a relative path with "/" separators, saw a ".." segment; skipped (an unsafe path)',
    );
    await expect(shownText(report)).resolves.toContain(
      'games/x.py: expected UTF-8 text, saw invalid UTF-8 bytes (first on line 1)',
    );
  });

  it('grounds the next run in it', async () => {
    await page.getByRole('button', { name: 'Model', exact: true }).click();
    await page.getByRole('button', { name: 'Start the demo' }).click();
    await page.getByLabel('Epochs', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create run' }).click();
    await page
      .getByText(shownPattern(/grounded in big-\d+/))
      .first()
      .waitFor({ timeout: 60_000 });
    await page.getByText(`grounded in your imported corpus (${DOCS} documents)`, { exact: false }).waitFor();
    await expect(page.getByText(shownPattern(/grounded in big-\d+/)).count()).resolves.toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'aborted' }).waitFor({ timeout: 30_000 });
    await expect(shownText(page.getByTestId('run-status'))).resolves.toBe('aborted');
  });

  it('can be dropped for the shipped corpus, also after a reload', async () => {
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await page.getByRole('button', { name: 'Use the shipped corpus again' }).click();
    await grounded().waitFor({ state: 'detached' });
    await page.reload();
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await page.getByRole('heading', { name: 'Import' }).waitFor();
    await expect(grounded().count()).resolves.toBe(0);
  });
});
