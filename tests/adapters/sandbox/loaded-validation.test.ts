import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { DEFAULT_VALIDATION, drawChallenge, validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { GOOD_ENVS, readEnv } from '../../fixtures/env-fixtures.ts';

// One fresh runtime, as a run has: its interpreters boot while the designs wait for them. Six boots
// one after another on busy cores take 40 s to 100 s here (the time limit allows for that); the
// environments' own time stays near a second each.
const runtime = createNodeSandboxRuntime();
afterAll(() => runtime.close());

/** Keeps every core busy with a spinning thread until stopped. */
function loadEveryCore(): () => Promise<void> {
  const spinners = Array.from({ length: availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
  return async () => {
    await Promise.all(spinners.map((worker) => worker.terminate()));
  };
}

const reply = (code: string) => `<think>Here is my design.</think>\n\`\`\`python\n${code}\`\`\`\n`;

describe('validation on a loaded machine', () => {
  it("six valid designs validated side by side, every core busy, are all valid within the tab's 5 s budget", async () => {
    expect(GOOD_ENVS).toHaveLength(6);
    // The epoch's starting point: the runtime can answer (one interpreter booted), the rest boot on demand.
    await runtime.warm();
    const stop = loadEveryCore();
    const started = Date.now();
    try {
      const reports = await Promise.all(
        GOOD_ENVS.map((fixture, i) =>
          validateEnvironment(reply(readEnv('good', fixture.file)), runtime, {
            ...DEFAULT_VALIDATION,
            challenge: drawChallenge(1000 + i),
          }),
        ),
      );
      const wallMs = Date.now() - started;
      const verdicts = reports.map((r) => ({ ok: r.ok, code: r.code, className: r.className }));
      expect(verdicts, reports.map((r) => r.message ?? '').join('\n')).toEqual(
        GOOD_ENVS.map((f) => ({ ok: true, code: null, className: f.className })),
      );
      // Only the environments' own code is charged: far below the budget, whatever the queue for interpreters took.
      for (const report of reports) expect(report.envMs).toBeLessThan(DEFAULT_VALIDATION.totalTimeoutMs);
      console.info(
        `six designs on a loaded machine: ${wallMs} ms wall; environment time ${reports.map((r) => Math.round(r.envMs)).join(', ')} ms; wall per design ${reports.map((r) => r.ms).join(', ')} ms`,
      );
    } finally {
      await stop();
    }
  }, 300_000);
});
