// `spade compare` and `spade sweep` with held-out intervals (issue 33, item 3): the paired
// difference from the first run in the table and in --json, and a sweep's cells averaged over
// seeds; in-process over the fake sandbox with the doubles of the scripted games.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.ts';
import { jeffreysInterval } from '../../src/core/eval/beta.ts';
import type { RunComparison } from '../../src/analysis/compare-runs.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import type { SpadeResult } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const SCRIPT = 'scripted:tests/fixtures/scripted/hint-helps.json';
const TINY = 'tests/fixtures/suites/tiny';
const SMALL = [
  '--slots',
  '2',
  '--plays',
  '2',
  '--max-turns',
  '3',
  '--skills',
  'logical deduction',
  '--no-corpus',
  '--eval',
  TINY,
];

async function spade(...args: string[]): Promise<SpadeResult> {
  const out: string[] = [];
  let stderr = '';
  const status = await runCli(args, {
    runtime: () => fakeSandbox(HINT_HELPS_DOUBLES),
    out: (line) => out.push(line + '\n'),
    err: (text) => (stderr += text),
  });
  return { status, stdout: out.join(''), stderr };
}

let out: string;
let sweep: SpadeResult;
beforeAll(async () => {
  out = join(tempDir('spade-compare-intervals-'), 'sweep');
  sweep = await spade(
    'sweep',
    '--model',
    SCRIPT,
    '--grid',
    'reward=blend,regret',
    '--seeds',
    '1,2',
    '--epochs',
    '1',
    '--out',
    out,
    ...SMALL,
  );
}, 60_000);

describe('held-out intervals in spade compare and spade sweep', () => {
  it('a sweep over two seeds ends with each cell over its seeds: mean held-out win rate and interval', () => {
    expect(sweep.status, sweep.stderr).toBe(0);
    const lines = sweep.stdout.split('\n');
    const at = lines.indexOf('over seeds:');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^runs +seeds +mean held-out win rate \(95% CI\)$/);
    // The scripted agent answers "door" on both suites' games: Door Word won, Glow Key lost, every seed.
    // Two environments, one always won and one always lost: resampling them spans everything.
    expect(lines[at + 2]).toBe('reward=blend   1,2    0.50 (0.00 to 1.00)');
    expect(lines[at + 3]).toBe('reward=regret  1,2    0.50 (0.00 to 1.00)');
  });

  it('compare --json gives each run its paired difference from the first and the seed groups', async () => {
    const dirs = ['reward-blend_seed-1', 'reward-regret_seed-1', 'reward-blend_seed-2'].map((name) => join(out, name));
    const result = await spade('compare', ...dirs, '--json');
    expect(result.status, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout) as RunComparison;
    expect(comparison.versusFirst[0]).toBeNull();
    // Both runs won exactly the same plays of the same two environments: the paired difference is 0 in
    // every resample, and the interval is the Jeffreys width of 0 of 2 environments either side.
    const width = jeffreysInterval(0, 2)[1];
    expect(comparison.versusFirst[1]).toEqual({
      kind: 'paired',
      difference: 0,
      ci95: [-width, width],
      environments: 2,
    });
    expect(comparison.seedGroups.map((g) => [g.label, g.seeds, g.meanWinRate])).toEqual([
      ['reward=blend', [1, 2], 0.5],
      ['reward=regret', [1], 0.5],
    ]);
    const table = (await spade('compare', ...dirs)).stdout.split('\n');
    expect(table[1]).toMatch(/held-out minus .*reward-blend_seed-1 \(paired 95% CI\)$/);
    expect(table[3]).toMatch(
      new RegExp(
        `0\\.50 \\(0\\.00 to 1\\.00\\) after 1 epoch +0\\.00 \\(-${width.toFixed(2)} to \\+${width.toFixed(2)}\\)$`,
      ),
    );
  });
});
