// Environments tuned to the probe (its seeds, its actions) pass SPADE's fixed probe but not the
// unpredictable challenge each validation draws from the run's seed.
import { describe, expect, it } from 'vitest';
import { drawChallenge, PROBE_ACTIONS, PROBE_SEED, REPLAY_SEED, validateEnvironment } from '../../../src/core/env/validate-env.ts';
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
const honest: FakeClass = () => ({ reset: () => ({ observation: 'ready', info: {} }), step: () => ({ observation: 'ok', reward: 0, terminated: false, truncated: false, info: {} }) });

const options = { maxTurns: 5, totalTimeoutMs: 5000, callTimeoutMs: 1000 };
const sandbox = fakeSandbox({ PROBE: knowsTheProbe, ACTIONS: knowsTheActions, HONEST: honest });

describe('validation cannot be whitelisted', () => {
  it('the fixed probe alone lets a probe-tuned environment through', async () => {
    expect((await validateEnvironment('PROBE', sandbox, { ...options, source: 'code' })).ok).toBe(true);
  });
  it('the drawn challenge catches one tuned to the probe seeds, and one tuned to the probe actions', async () => {
    const challenge = drawChallenge(12345);
    expect(await validateEnvironment('PROBE', sandbox, { ...options, source: 'code', challenge })).toMatchObject({ ok: false, stage: 'probe', code: 'reset_exception' });
    expect(await validateEnvironment('ACTIONS', sandbox, { ...options, source: 'code', challenge })).toMatchObject({ ok: false, stage: 'probe', code: 'step_exception' });
    expect((await validateEnvironment('HONEST', sandbox, { ...options, source: 'code', challenge })).ok).toBe(true);
  });
  it('draws different seeds and actions from different seeds, the same from the same', () => {
    expect(drawChallenge(7)).toEqual(drawChallenge(7));
    const draws = [1, 2, 3, 4].map(drawChallenge);
    expect(new Set(draws.map((d) => d.seed)).size).toBe(4);
    expect(draws.every((d) => d.seed !== PROBE_SEED && d.seed !== REPLAY_SEED && d.actions.every((a) => !(PROBE_ACTIONS as readonly string[]).includes(a)))).toBe(true);
  });
});
