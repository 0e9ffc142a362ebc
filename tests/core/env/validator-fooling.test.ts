// Environments tuned to the probe (its seeds, its actions) pass SPADE's fixed probe but not the
// unpredictable challenge each validation draws (from the run's seed in a run; from the code's
// hash and a nonce outside one).
import { describe, expect, it } from 'vitest';
import { challengeSeed, tokenAction } from '../../../src/core/env/validation-challenge.ts';
import {
  drawChallenge,
  PROBE_ACTIONS,
  PROBE_SEED,
  REPLAY_SEED,
  validateEnvironment,
} from '../../../src/core/env/validate-env.ts';
import { fakeFailure, fakeSandbox, type FakeClass } from '../../fixtures/fake-sandbox.ts';

const knowsTheProbe: FakeClass = () => ({
  reset: (seed) => {
    if (seed !== PROBE_SEED && seed !== REPLAY_SEED) throw fakeFailure('reset_exception');
    return { observation: 'ready', info: {} };
  },
  step: (action) => {
    if (!(PROBE_ACTIONS as readonly string[]).includes(action)) throw fakeFailure('step_exception');
    return { observation: 'fine', reward: 0, terminated: false, truncated: false, info: {} };
  },
});
const knowsTheActions: FakeClass = () => ({ ...knowsTheProbe(0), reset: () => ({ observation: 'ready', info: {} }) });
const honest: FakeClass = () => ({
  reset: () => ({ observation: 'ready', info: {} }),
  step: () => ({ observation: 'ok', reward: 0, terminated: false, truncated: false, info: {} }),
});

const options = { maxTurns: 5, totalTimeoutMs: 5000, callTimeoutMs: 1000 };
const sandbox = fakeSandbox({ PROBE: knowsTheProbe, ACTIONS: knowsTheActions, HONEST: honest });

describe('validation cannot be whitelisted', () => {
  it('a validation given no challenge still draws one, from the code and the nonce', async () => {
    expect(await validateEnvironment('PROBE', sandbox, { ...options, source: 'code' })).toMatchObject({
      ok: false,
      stage: 'probe',
      code: 'reset_exception',
    });
    expect(await validateEnvironment('ACTIONS', sandbox, { ...options, source: 'code', nonce: 99 })).toMatchObject({
      ok: false,
      stage: 'probe',
      code: 'step_exception',
    });
    expect(challengeSeed('code', 1)).not.toBe(challengeSeed('code', 2));
    expect(challengeSeed('code', 1)).not.toBe(challengeSeed('code!', 1));
    expect(challengeSeed('code', 1)).toBe(challengeSeed('code', 1));
  });
  it('the drawn challenge catches one tuned to the probe seeds, and one tuned to the probe actions', async () => {
    const challenge = drawChallenge(12345);
    expect(await validateEnvironment('PROBE', sandbox, { ...options, source: 'code', challenge })).toMatchObject({
      ok: false,
      stage: 'probe',
      code: 'reset_exception',
    });
    expect(await validateEnvironment('ACTIONS', sandbox, { ...options, source: 'code', challenge })).toMatchObject({
      ok: false,
      stage: 'probe',
      code: 'step_exception',
    });
    expect((await validateEnvironment('HONEST', sandbox, { ...options, source: 'code', challenge })).ok).toBe(true);
  });
  it('draws different seeds and actions from different seeds, the same from the same', () => {
    expect(drawChallenge(7)).toEqual(drawChallenge(7));
    const draws = [1, 2, 3, 4].map(drawChallenge);
    expect(new Set(draws.flatMap((d) => d.seeds)).size).toBe(8);
    const fixed = [PROBE_SEED, REPLAY_SEED];
    expect(
      draws.every(
        (d) =>
          d.seeds.every((s) => !fixed.includes(s)) &&
          d.actions.every((a) => !(PROBE_ACTIONS as readonly string[]).includes(a)),
      ),
    ).toBe(true);
  });
  it('answers the observation with one of its own tokens, boxed', () => {
    const challenge = drawChallenge(5);
    expect(['\\boxed{amber}', '\\boxed{cobalt}', '\\boxed{7}']).toContain(tokenAction('amber, cobalt: 7!', challenge));
    expect(tokenAction('amber', challenge)).toBe('\\boxed{amber}');
    expect(tokenAction('!!!', challenge)).toMatch(/^\\boxed\{[a-z]+\}$/);
  });
  it('counts every call: the honest environment is reset four times and stepped at least seven times', async () => {
    const calls: string[] = [];
    const counted = fakeSandbox({
      COUNTED: () => ({
        reset: (seed) => (calls.push(`reset ${seed}`), { observation: 'alpha beta', info: {} }),
        step: (action) => (
          calls.push(`step ${action}`),
          { observation: 'ok', reward: 0, terminated: false, truncated: false, info: {} }
        ),
      }),
    });
    const challenge = drawChallenge(3);
    expect((await validateEnvironment('COUNTED', counted, { ...options, source: 'code', challenge })).ok).toBe(true);
    expect(calls.filter((c) => c.startsWith('reset')).map((c) => Number(c.slice(6)))).toEqual([
      PROBE_SEED,
      REPLAY_SEED,
      challenge.seeds[0],
      challenge.seeds[1],
      PROBE_SEED,
      challenge.seeds[0],
    ]);
    expect(calls.filter((c) => c.startsWith('step')).length).toBeGreaterThan(6);
  });
});
