// The sandbox panel's example environment played in the real sandbox: what a person sees when trying it.
import { describe, expect, it } from 'vitest';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';
import { fileSandbox } from '../fixtures/sandbox/file-sandbox.ts';

const runtime = fileSandbox();

describe('the example environment', () => {
  it('says "1 digit" and "0 digits", never "digit(s)"', async () => {
    const handle = await runtime().load(EXAMPLE_ENV, { maxTurns: 12, timeoutMs: 10_000 });
    try {
      await handle.reset(1, { timeoutMs: 10_000 });
      const seen: string[] = [];
      for (let d = 0; d <= 9; d++)
        seen.push((await handle.step(`\\boxed{${String(d).repeat(3)}}`, { timeoutMs: 10_000 })).observation);
      const counts = seen
        .filter((text) => !text.startsWith('Correct'))
        .map((text) => /^(\d) (digits?) in the right place\. /.exec(text));
      expect(counts.every((m) => m !== null && (m[1] === '1') === (m[2] === 'digit'))).toBe(true);
      expect(new Set(counts.map((m) => m![2]))).toEqual(new Set(['digit', 'digits']));
    } finally {
      await handle.dispose();
    }
  });
});
