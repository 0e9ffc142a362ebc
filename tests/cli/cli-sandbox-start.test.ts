// When the command line's sandbox starts and stops, over fake processes behind the spawn seam (no
// Python, milliseconds): a command that runs Python starts booting as it begins, one that runs
// none never makes a sandbox, and the exit never waits for a spare that is still booting.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { runCliWithSandbox } from '../../src/cli/cli.ts';
import { fakeSpawner } from '../fixtures/fake-sandbox-process.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const dir = tempDir('spade-cli-start-');

function spade(bootMs: number) {
  const fake = fakeSpawner(bootMs);
  let created = 0;
  const lines: string[] = [];
  const run = (...argv: string[]) =>
    runCliWithSandbox(
      argv,
      () => {
        created += 1;
        return new PyodideSandboxRuntime(fake.spawn, { spares: 2, bootsAtOnce: 2 });
      },
      (line) => lines.push(line),
      () => undefined,
    );
  return { run, log: fake.log, lines, created: () => created };
}

describe('the command line sandbox', () => {
  it('validate starts booting as it begins and validates on the booted interpreter', async () => {
    const file = join(dir, 'count.py');
    writeFileSync(file, 'count\n');
    const { run, log, lines } = spade(5);
    await expect(run('validate', file)).resolves.toBe(0);
    expect(lines.join('\n')).toMatch(/^valid {4}.*count\.py \(FakeEnv/);
    expect(log.spawned).toBeGreaterThanOrEqual(1);
  });

  it('exits at once when the command ends while its spares are still booting, abandoning them', async () => {
    const { run, log } = spade(60_000);
    const started = Date.now();
    await expect(run('validate', join(dir, 'missing.py'))).resolves.toBe(1);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(log.started).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log.aborted).toBe(2);
    expect(log.spawned).toBe(0);
  });

  it('a command that runs no Python never makes a sandbox', async () => {
    const { run, created } = spade(5);
    await expect(run('compare', join(dir, 'no-such-run'))).resolves.toBe(2);
    await expect(run('nonsense')).resolves.toBe(2);
    expect(created()).toBe(0);
  });
});
