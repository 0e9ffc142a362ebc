// Odd `reset` returns in the real sandbox (docs/method.md section 5, "Odd reset returns"). The
// reference's game wrapper, read by hand from its reset(): a tuple whose len() is 2 is unpacked as
// (observation, info), a str is the observation with an empty info, anything else is str() of it;
// the info goes through the numeric filter (a non-dict is {}); an exception raised by the game's
// reset, or by any of these conversions, is caught and the play goes on from a fixed error
// observation. The observation of a pair is not converted by the wrapper: the agent's prompt writes
// it with format(). Under the reference preset (`coerceStepReturns` with `crashesLose`) the play
// starts from what the reference's agent reads; under the tab's default the contract refuses each
// odd return and the play fails with that code. Validation reads reset strictly under both.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withPreset, type Config } from '../../../src/core/config.ts';
import { RESET_CRASH_OBSERVATION } from '../../../src/core/loop/step-crash.ts';
import { validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { playOneTurn } from '../../fixtures/one-turn-play.ts';

const runtime = fileSandbox();

const envResetting = (expression: string, classes = '') => `${classes}
class OddEnv:
    def reset(self, seed=None):
        return ${expression}
    def step(self, action):
        return "Done.", 1.0, True, False, {}
`;

const REFERENCE = withPreset(DEFAULT_CONFIG, 'reference');

const play = (expression: string, config: Config, classes = '') =>
  playOneTurn(runtime(), envResetting(expression, classes), config, 'odd-reset');

// What a reset gives with the harness's conversion asked for directly (its info included).
async function convertedReset(expression: string, classes = '') {
  const handle = await runtime().load(envResetting(expression, classes), { maxTurns: 1, timeoutMs: 10_000 });
  try {
    return await handle.reset(1, { timeoutMs: 10_000, coerce: true });
  } finally {
    await handle.dispose();
  }
}

const SHORT = 'class Short(tuple):\n    def __len__(self):\n        return 3\n';
const LONG = 'class Long(tuple):\n    def __len__(self):\n        return 2\n';
const OWN_ITER = 'class OwnIter(tuple):\n    def __iter__(self):\n        return iter(("from iter", {}))\n';
const CLAIMS_TUPLE =
  'class Claims:\n    __class__ = property(lambda self: tuple)\n    def __len__(self):\n        return 2\n    def __iter__(self):\n        return iter(("claimed", {}))\n';
const CLAIMS_STR =
  'class ClaimsStr:\n    __class__ = property(lambda self: str)\n    def __str__(self):\n        return "claimed str"\n';
const BAD_STR = 'class BadStr:\n    def __str__(self):\n        raise ValueError("no text")\n';

// [case, reset's return in Python, classes defined first, the tab's code (null: it plays), the first
// observation under the reference preset (null: the play goes on from the error observation), and
// whether the reference's validation (its reset(42) check) accepts the design]
type Case = [string, string, string, string | null, string | null, boolean];
const CASES: Case[] = [
  ['a 1-tuple', '("only",)', '', 'reset_bad_return', "('only',)", false],
  ['a 3-tuple', '("obs", {}, 1)', '', 'reset_bad_return', "('obs', {}, 1)", false],
  ['a bare str', '"Say anything."', '', null, 'Say anything.', true],
  ['an int', '5', '', 'reset_bad_return', '5', false],
  ['None', 'None', '', 'reset_bad_return', 'None', false],
  ['an empty observation', '"", {}', '', 'reset_empty_observation', '', false],
  ['a pair with an int observation', '5, {}', '', 'reset_bad_return', '5', false],
  ['a pair with a None observation', 'None, {}', '', 'reset_bad_return', 'None', false],
  ['a pair with a list info', '"obs", [1]', '', 'reset_bad_info', 'obs', false],
  ['a pair with a str info', '"obs", "info"', '', 'reset_bad_info', 'obs', false],
  ['an info with strings', '"obs", {"s": "x", "i": 2}', '', null, 'obs', true],
  ['a reset that raises', '1 / 0', '', 'reset_exception', null, false],
  ['an object whose str() raises', 'BadStr()', BAD_STR, 'reset_bad_return', null, false],
  ['a tuple subclass whose __len__ says 3 over 2 items', 'Short(("obs", {}))', SHORT, null, "('obs', {})", false],
  ['a tuple subclass whose __len__ says 2 over 3 items', 'Long(("obs", {}, 1))', LONG, 'reset_bad_return', null, false],
  ['a tuple subclass whose __iter__ yields other items', 'OwnIter(("real", {}))', OWN_ITER, null, 'from iter', true],
  ['an object that claims to be a tuple', 'Claims()', CLAIMS_TUPLE, 'reset_bad_return', 'claimed', true],
  ['an object that claims to be a str', 'ClaimsStr()', CLAIMS_STR, 'reset_bad_return', 'claimed str', false],
];

describe('odd reset returns, real sandbox', () => {
  it.each(CASES)(
    '%s: the reference preset starts the play from what the reference gives',
    async (_name, expression, classes, _tabCode, observation) => {
      const episode = await play(expression, REFERENCE, classes);
      expect([episode.error, episode.turns.length, episode.return]).toEqual([null, 1, 1]);
      if (observation === null) {
        expect([episode.firstObservation, episode.crash?.at, episode.crash?.code]).toEqual([
          RESET_CRASH_OBSERVATION,
          'reset',
          'reset_exception',
        ]);
      } else {
        expect([episode.firstObservation, episode.crash]).toEqual([observation, undefined]);
      }
    },
  );

  it.each(CASES)(
    '%s: the tab default refuses it with its code, or plays it as it is',
    async (_name, expression, classes, tabCode) => {
      const episode = await play(expression, DEFAULT_CONFIG, classes);
      if (tabCode === null) expect([episode.error, episode.return]).toEqual([null, 1]);
      else
        expect([episode.error?.code, episode.return, episode.turns.length, episode.crash]).toEqual([
          tabCode,
          0,
          0,
          undefined,
        ]);
    },
  );

  it('keeps of a reset info what the reference keeps: numbers, bools, None and what float() reads', async () => {
    const classes = 'class Decimalish:\n    def __float__(self):\n        return 2.5\n';
    const reset = await convertedReset(
      '"obs", {"s": "x", "i": 2, "n": None, "b": True, "l": [1], "d": Decimalish()}',
      classes,
    );
    expect(reset).toEqual({ observation: 'obs', info: { i: 2, n: null, b: true, d: 2.5 } });
    expect(await convertedReset('"obs", [("k", 1)]')).toEqual({ observation: 'obs', info: {} });
  });

  it("reads a dict subclass's info through its own items(), as the reference's filter does", async () => {
    const classes = 'class OwnItems(dict):\n    def items(self):\n        return [("score", 3), ("name", "x")]\n';
    expect(await convertedReset('"obs", OwnItems(real=1)', classes)).toEqual({
      observation: 'obs',
      info: { score: 3 },
    });
  });

  it('names the error a conversion raised, so the kept crash says what the reference caught', async () => {
    const long = await play('Long(("obs", {}, 1))', REFERENCE, LONG);
    expect(long.crash?.message).toContain('too many values to unpack (expected 2)');
    const badStr = await play('BadStr()', REFERENCE, BAD_STR);
    expect(badStr.crash?.message).toContain('ValueError: no text');
  });

  it('without crashesLose a reset that raises still fails the play, converted or not', async () => {
    const coerceOnly = { ...DEFAULT_CONFIG, coerceStepReturns: true };
    expect((await play('1 / 0', coerceOnly)).error?.code).toBe('reset_exception');
    expect((await play('("only",)', coerceOnly)).firstObservation).toBe("('only',)");
  });

  it.each(CASES)(
    '%s: validation reads reset strictly, whatever the preset',
    async (_name, expression, classes, tabCode) => {
      const report = await validateEnvironment(envResetting(expression, classes), runtime(), {
        maxTurns: 1,
        totalTimeoutMs: 20_000,
        callTimeoutMs: 10_000,
        source: 'code',
      });
      expect([report.ok, report.code]).toEqual([tabCode === null, tabCode]);
    },
  );

  it('starts the play alike under both presets on a bare str and an info with strings, and on no other', async () => {
    const played = CASES.filter(([, , , tabCode]) => tabCode === null);
    const alike: string[] = [];
    for (const [name, expression, classes] of played) {
      const [tab, reference] = [
        await play(expression, DEFAULT_CONFIG, classes),
        await play(expression, REFERENCE, classes),
      ];
      if (tab.firstObservation === reference.firstObservation) alike.push(name);
    }
    expect(alike).toEqual(['a bare str', 'an info with strings']);
    expect([
      CASES.length - played.length,
      CASES.filter(([, , , , observation]) => observation === null).length,
    ]).toEqual([14, 3]);
  });

  it('agrees with the reference validation on every case but a tuple whose len() lies and an object that claims to be a tuple', () => {
    const disagree = CASES.filter(([, , , tabCode, , referenceAccepts]) => (tabCode === null) !== referenceAccepts).map(
      ([name]) => name,
    );
    expect(disagree).toEqual([
      'a tuple subclass whose __len__ says 3 over 2 items',
      'an object that claims to be a tuple',
    ]);
  });
});
