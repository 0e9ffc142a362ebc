// The concurrency bench's browser variant: the epochs run in Chromium (concurrency-bench-page.ts)
// with the app's browser sandbox and OpenAI adapter, against the bench's stand-in in this process.
import { startRig } from '../browser/harness.ts';
import type { EpochRunner } from './concurrency-bench.ts';

/** Opens the bench page in a fresh Chromium and runs each epoch there against the server at `origin` (which must allow the page's origin). */
export async function browserRunner(origin: string): Promise<EpochRunner> {
  const rig = await startRig();
  try {
    const page = await rig.open('/tests/bench/concurrency-bench-page.html');
    await page.waitForFunction('typeof window.spadeConcurrencyOpen === "function"', undefined, { timeout: 60_000 });
    await page.evaluate((o) => window.spadeConcurrencyOpen(o), origin);
    return {
      epoch: (config) => page.evaluate((c) => window.spadeConcurrencyEpoch(c), config),
      close: () => rig.close(),
    };
  } catch (error) {
    await rig.close();
    throw error;
  }
}
