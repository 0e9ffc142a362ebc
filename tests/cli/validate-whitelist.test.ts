// `spade validate` on environments that whitelist the fixed probe: each is refused with its own
// code, and the honest starter game beside them is still valid.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inProcessSpade, ROOT } from './spade-cli.ts';

const spade = inProcessSpade();
const WHITELIST = join(ROOT, 'tests/fixtures/envs/hostile/whitelist');
const EXPECTED: Record<string, string> = {
  'seeds_42_123.py': 'probe/reset_exception',
  'probe_actions_only.py': 'probe/step_exception',
  'first_two_resets.py': 'probe/reset_exception',
  'first_six_calls.py': 'probe/step_bad_observation',
  'exact_script.py': 'probe/reset_exception',
  'deterministic_for_probe_seeds.py': 'determinism/nondeterministic_reset',
  'crashes_on_own_moves.py': 'probe/step_exception',
};

describe('spade validate cannot be whitelisted', () => {
  it('refuses every whitelisting environment with its code and accepts the honest game', async () => {
    const files = Object.keys(EXPECTED).map((f) => join(WHITELIST, f));
    const result = await spade(
      'validate',
      ...files,
      join(ROOT, 'public/pools/starter/games/number_ladder.py'),
      '--json',
    );
    expect(result.status, result.stderr).toBe(1);
    const verdicts = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { file: string; ok: boolean; stage: string | null; code: string | null });
    expect(verdicts.map((v) => (v.ok ? 'valid' : `${v.stage}/${v.code}`))).toEqual([
      ...Object.values(EXPECTED),
      'valid',
    ]);
  });
});
