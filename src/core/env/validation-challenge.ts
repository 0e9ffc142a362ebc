import type { EnvHandle } from '../ports/sandbox-port.ts';
import { envError } from './env-error.ts';
import { firstDifference } from './repair-hints.ts';

/**
 * The unpredictable part of validation (docs/method.md section 1, "Validate"): two reset seeds,
 * random actions and which token of an observation is sent back, all drawn per validation, so an
 * environment cannot pass by knowing the fixed probe's seeds, actions, reset count or call count.
 */
export interface ValidationChallenge {
  /** Seeds of the challenge's two resets (never 42 or 123). */
  seeds: readonly [number, number];
  /** Random text sent after the observation's own token: a boxed word and number, a boxed number, an unboxed phrase. */
  actions: readonly string[];
  /** Which token of an observation is sent back boxed (taken modulo the token count). */
  pick: number;
}

const CHALLENGE_WORDS = ['north', 'open', 'left', 'take', 'check', 'move', 'red', 'swap', 'up', 'query'];

/** Draws a challenge from a seed (the same seed gives the same challenge). */
export function drawChallenge(seed: number): ValidationChallenge {
  let state = seed >>> 0;
  const next = (n: number) => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state % n;
  };
  const word = () => CHALLENGE_WORDS[next(CHALLENGE_WORDS.length)]!;
  const first = 1000 + next(1_000_000);
  return {
    seeds: [first, 1_001_000 + next(1_000_000)],
    actions: [`\\boxed{${word()} ${next(10)}}`, `\\boxed{${next(1000)}}`, `${word()} please`],
    pick: next(1 << 16),
  };
}

/**
 * The challenge seed of a validation outside a run (`spade validate`, imports, the app's
 * validate): a hash of the code mixed with a nonce drawn once per process, so neither the file nor
 * a copy of this function can predict it.
 */
export function challengeSeed(code: string, nonce: number): number {
  let hash = 0x811c9dc5 ^ (nonce >>> 0);
  for (let i = 0; i < code.length; i++) hash = Math.imul(hash ^ code.charCodeAt(i), 0x01000193) >>> 0;
  return hash >>> 0;
}

/** The environment's own observation answered with one of its tokens, boxed (a random word when it has none). */
export function tokenAction(observation: string, challenge: ValidationChallenge): string {
  const tokens = observation.slice(0, 4000).match(/[A-Za-z0-9]{1,40}/g) ?? [];
  const token =
    tokens.length > 0
      ? tokens[challenge.pick % tokens.length]!
      : CHALLENGE_WORDS[challenge.pick % CHALLENGE_WORDS.length]!;
  return `\\boxed{${token}}`;
}

/**
 * Runs the challenge after the fixed probe: a reset on the first drawn seed, a step with a token of
 * its observation and then the random actions (stopping at a terminal step), a third reset on the
 * second drawn seed and one step with a token of that observation. Returns the first observation,
 * for the determinism check.
 */
export async function challengeProbe(handle: EnvHandle, challenge: ValidationChallenge): Promise<string> {
  const first = await handle.reset(challenge.seeds[0], { stage: 'probe' });
  for (const action of [tokenAction(first.observation, challenge), ...challenge.actions]) {
    const step = await handle.step(action, { stage: 'probe' });
    if (step.terminated || step.truncated) break;
  }
  const third = await handle.reset(challenge.seeds[1], { stage: 'probe' });
  await handle.step(tokenAction(third.observation, challenge), { stage: 'probe' });
  return first.observation;
}

/** Fails with `nondeterministic_reset` unless `reset(seed)` gives `expected` again. */
export async function checkSameReset(handle: EnvHandle, seed: number, expected: string): Promise<void> {
  const again = await handle.reset(seed, { stage: 'determinism' });
  if (again.observation === expected) return;
  const diff = firstDifference(expected, again.observation);
  throw envError('nondeterministic_reset', 'determinism', {
    expected: `reset(seed=${seed}) to give the same first observation every time`,
    seen: `two different observations; they first differ at character ${diff.at + 1} (line ${diff.line}): ${JSON.stringify(diff.first)} the first time, ${JSON.stringify(diff.second)} the second`,
    fix: 'draw all randomness from random.Random(seed) or the seeded global random inside reset, never from time, id() or a count of calls',
  });
}
