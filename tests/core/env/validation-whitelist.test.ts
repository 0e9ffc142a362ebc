// Environments that whitelist the fixed probe (its seeds, its actions, its reset count, its call
// count, its exact script) in the real Node sandbox: each answers the fixed script properly, and
// validation refuses each, whatever challenge it draws.
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { readEnv } from '../../fixtures/env-fixtures.ts';
import {
  DEFAULT_VALIDATION,
  PROBE_ACTIONS,
  PROBE_SEED,
  REPLAY_SEED,
  validateEnvironment,
} from '../../../src/core/env/validate-env.ts';
import type { EnvErrorCode, ValidationStage } from '../../../src/core/env/env-error.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';

const runtime = fileSandbox();

interface WhitelistFixture {
  file: string;
  stage: ValidationStage;
  code: EnvErrorCode;
}

const WHITELISTERS: readonly WhitelistFixture[] = [
  { file: 'seeds_42_123.py', stage: 'probe', code: 'reset_exception' },
  { file: 'probe_actions_only.py', stage: 'probe', code: 'step_exception' },
  { file: 'first_two_resets.py', stage: 'probe', code: 'reset_exception' },
  { file: 'first_six_calls.py', stage: 'probe', code: 'step_bad_observation' },
  { file: 'exact_script.py', stage: 'probe', code: 'reset_exception' },
  { file: 'deterministic_for_probe_seeds.py', stage: 'determinism', code: 'nondeterministic_reset' },
  { file: 'crashes_on_own_moves.py', stage: 'probe', code: 'step_exception' },
];

const code = (file: string) => readEnv('hostile', `whitelist/${file}`);

/** The fixed probe alone, as the reference runs it: reset(42), the probe actions, reset(123), reset(42) again. */
async function fixedScript(handle: EnvHandle): Promise<boolean> {
  const first = await handle.reset(PROBE_SEED);
  for (const action of PROBE_ACTIONS) {
    const step = await handle.step(action);
    if (typeof step.observation !== 'string' || step.terminated || step.truncated) break;
  }
  await handle.reset(REPLAY_SEED);
  return (await handle.reset(PROBE_SEED)).observation === first.observation;
}

describe('whitelisting environments', () => {
  it.each(WHITELISTERS)('$file answers the fixed script properly', async ({ file }) => {
    const handle = await runtime().load(code(file), { maxTurns: 12, timeoutMs: 5000 });
    try {
      expect(await fixedScript(handle)).toBe(true);
    } finally {
      await handle.dispose();
    }
  });

  it.each(WHITELISTERS)(
    '$file is refused at $stage with $code, under three different challenges',
    async ({ file, stage, code: expected }) => {
      for (const nonce of [1, 2, 3]) {
        const report = await validateEnvironment(code(file), runtime(), {
          ...DEFAULT_VALIDATION,
          source: 'code',
          nonce,
        });
        expect({ ok: report.ok, stage: report.stage, code: report.code }).toEqual({ ok: false, stage, code: expected });
        expect(report.message).toMatch(/^Expected .+\. Saw .+\. Fix: .+\.$/s);
      }
    },
  );
});
