// Odd `step` returns played in the real sandbox (docs/method.md section 5, "Odd step returns"). Under
// the reference preset (`coerceStepReturns` with `crashesLose`) each one gives what the reference's
// game wrapper gives, read by hand from its step(): a return that is not a 5-tuple is "Invalid game
// response" at -1; a conversion that raises is "Error: ..." at -1; otherwise the observation goes
// through str() (None as "No observation"), the reward through float() (None as 0.0), the flags
// through bool() (None as False) and a non-dict info becomes {}, with no range or finiteness check;
// the return is then max(-1.0, min(1.0, reward)) of the terminal step. Under the tab's default each
// one is refused by the contract and the play fails with that code.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withPreset, type Config } from '../../../src/core/config.ts';
import { stepKeepingCrashes, CRASH_REWARD } from '../../../src/core/loop/step-crash.ts';
import { returnOf } from '../../../src/verify/formulas.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { playOneTurn } from '../../fixtures/one-turn-play.ts';

const runtime = fileSandbox();

const envReturning = (expression: string, classes = '') => `${classes}
class OddEnv:
    def reset(self, seed=None):
        return "Say anything.", {}
    def step(self, action):
        return ${expression}
`;

const play = (expression: string, config: Config, classes = '') =>
  playOneTurn(runtime(), envReturning(expression, classes), config, 'odd');

// The info a converted step gives when the environment returns ("obs", 1.0, True, False, <info>), the classes defined first.
async function infoOf(classes: string, info: string) {
  const handle = await runtime().load(envReturning(`("obs", 1.0, True, False, ${info})`, classes), {
    maxTurns: 1,
    timeoutMs: 10_000,
  });
  try {
    await handle.reset(1, { timeoutMs: 10_000 });
    return (await stepKeepingCrashes(handle, 'go', { timeoutMs: 10_000, coerce: true }, true, {})).info;
  } finally {
    await handle.dispose();
  }
}

const REFERENCE = withPreset(DEFAULT_CONFIG, 'reference');

// The first turn and the play as the reference's wrapper gives them: an observation of null means an "Error: ..." text.
function expectReferencePlay(
  episode: Awaited<ReturnType<typeof play>>,
  [observation, reward, terminated, truncated, played]: Case[3],
  crashCode: string | null,
): void {
  const turn = episode.turns[0]!;
  expect([
    turn.reward,
    turn.terminated,
    turn.truncated,
    episode.return,
    episode.error,
    episode.crash?.code ?? null,
  ]).toEqual([reward, terminated, truncated, played, null, crashCode]);
  if (observation === null) expect(turn.observation).toMatch(/^Error: /);
  else expect(turn.observation).toBe(observation);
}

// [case, the step's return in Python, the tab's refusal code, the reference's (observation or null when
// it is an error text, reward, terminated, truncated, return), and the kept crash's code under the reference preset]
type Case = [string, string, string, [string | null, number, boolean, boolean, number], string | null];
const CASES: Case[] = [
  ['a 4-tuple', '("obs", 1.0, True, False)', 'step_bad_return', [null, -1, true, false, -1], 'step_bad_return'],
  ['a bare str', '"done"', 'step_bad_return', [null, -1, true, false, -1], 'step_bad_return'],
  [
    'a reward float() cannot read',
    '("obs", "win", True, False, {})',
    'step_bad_reward',
    [null, -1, true, false, -1],
    'step_exception',
  ],
  ['a numeric string reward', '("obs", "1.0", True, False, {})', 'step_bad_reward', ['obs', 1, true, false, 1], null],
  ['a None reward', '("obs", None, True, False, {})', 'step_bad_reward', ['obs', 0, true, false, 0], null],
  [
    'a None observation',
    '(None, 1.0, True, False, {})',
    'step_bad_observation',
    ['No observation', 1, true, false, 1],
    null,
  ],
  ['an int observation', '(5, 1.0, True, False, {})', 'step_bad_observation', ['5', 1, true, false, 1], null],
  ['an int terminated flag', '("obs", 1.0, 0, False, {})', 'step_bad_flags', ['obs', 1, false, false, 0], null],
  ['a None truncated flag', '("obs", 1.0, True, None, {})', 'step_bad_flags', ['obs', 1, true, false, 1], null],
  ['a list info', '("obs", 1.0, True, False, [])', 'step_bad_info', ['obs', 1, true, false, 1], null],
  [
    'a NaN reward',
    '("obs", float("nan"), True, False, {})',
    'reward_not_finite',
    ['obs', Number.NaN, true, false, 1],
    null,
  ],
  ['a reward of 11', '("obs", 11, True, False, {})', 'reward_out_of_range', ['obs', 11, true, false, 1], null],
];

// Classes that override what the reference's wrapper calls (isinstance, len, unpacking): [case, the classes,
// the step's return, the reference's outcome as in CASES, the kept crash's code]. The outcomes are what
// the wrapper's own calls give on these objects in CPython; __getitem__ is not one of them.
type SubclassCase = [string, string, string, [string | null, number, boolean, boolean, number], string | null];
const SUBCLASS_CASES: SubclassCase[] = [
  [
    'a tuple subclass whose __len__ says 4',
    'class Short(tuple):\n    def __len__(self):\n        return 4\n',
    'Short(("obs", 1.0, True, False, {}))',
    [null, -1, true, false, -1],
    'step_bad_return',
  ],
  [
    'a tuple subclass whose __iter__ yields other items',
    'class OwnIter(tuple):\n    def __iter__(self):\n        return iter(("from iter", 1.0, True, False, {}))\n',
    'OwnIter(("real", 0.0, False, False, {}))',
    ['from iter', 1, true, false, 1],
    null,
  ],
  [
    'a tuple subclass whose __getitem__ answers otherwise',
    'class OwnItem(tuple):\n    def __getitem__(self, i):\n        return "from getitem"\n',
    'OwnItem(("obs", 1.0, True, False, {}))',
    ['obs', 1, true, false, 1],
    null,
  ],
  [
    'a tuple subclass whose __len__ says 5 over 4 items',
    'class Long(tuple):\n    def __len__(self):\n        return 5\n',
    'Long(("obs", 1.0, True, False))',
    [null, -1, true, false, -1],
    'step_exception',
  ],
  [
    'an object that claims to be a tuple',
    'class Claims:\n    __class__ = property(lambda self: tuple)\n    def __len__(self):\n        return 5\n    def __iter__(self):\n        return iter(("claimed", 1.0, True, False, {}))\n',
    'Claims()',
    ['claimed', 1, true, false, 1],
    null,
  ],
];

describe('odd step returns, real sandbox', () => {
  it('the reference preset converts them and the tab default refuses them', () => {
    expect([
      REFERENCE.coerceStepReturns,
      REFERENCE.crashesLose,
      DEFAULT_CONFIG.coerceStepReturns,
      DEFAULT_CONFIG.crashesLose,
    ]).toEqual([true, true, false, false]);
  });

  it.each(CASES)(
    '%s: the reference preset gives what the reference gives',
    async (_name, expression, _tabCode, [observation, reward, terminated, truncated, played], crashCode) => {
      const episode = await play(expression, REFERENCE);
      expectReferencePlay(episode, [observation, reward, terminated, truncated, played], crashCode);
    },
  );

  it.each(CASES)('%s: the tab default refuses it (%s) and the play fails', async (_name, expression, tabCode) => {
    const episode = await play(expression, DEFAULT_CONFIG);
    expect([episode.error?.code, episode.return, episode.crash]).toEqual([tabCode, 0, undefined]);
  });

  it.each(SUBCLASS_CASES)(
    '%s: the reference preset calls its overrides as the reference does',
    async (_name, classes, expression, [observation, reward, terminated, truncated, played], crashCode) => {
      const episode = await play(expression, REFERENCE, classes);
      expectReferencePlay(episode, [observation, reward, terminated, truncated, played], crashCode);
    },
  );

  it('names the len() it was told when a tuple subclass is refused, and the unpacking error when it raises', async () => {
    const short = await play('Short(("obs", 1.0, True, False, {}))', REFERENCE, SUBCLASS_CASES[0]![1]);
    expect(short.turns[0]!.observation).toContain('an instance of class "Short" (a tuple whose len() is 4)');
    const long = await play('Long(("obs", 1.0, True, False))', REFERENCE, SUBCLASS_CASES[3]![1]);
    expect(long.turns[0]!.observation).toContain('not enough values to unpack (expected 5, got 4)');
  });

  it("says float()'s own words when the reward cannot be read", async () => {
    const episode = await play('("obs", "win", True, False, {})', REFERENCE);
    expect(episode.turns[0]!.observation).toContain("could not convert string to float: 'win'");
  });

  it('stores a NaN reward by name, so the return recomputed from the run files is the reference one', async () => {
    const episode = await play('("obs", float("nan"), True, False, {})', REFERENCE);
    const stored = JSON.parse(JSON.stringify(episode.turns)) as typeof episode.turns;
    expect([stored[0]!.reward, stored[0]!.nonfiniteReward, returnOf(stored, false), episode.return]).toEqual([
      null,
      'nan',
      1,
      1,
    ]);
    const minusInfinity = await play('("obs", float("-inf"), True, False, {})', REFERENCE);
    const storedMinus = JSON.parse(JSON.stringify(minusInfinity.turns)) as typeof episode.turns;
    expect([storedMinus[0]!.nonfiniteReward, returnOf(storedMinus, false), minusInfinity.return]).toEqual([
      '-inf',
      -1,
      -1,
    ]);
  });

  it("keeps of an info dict what the reference's filter keeps: numbers, bools, None and what float() reads", async () => {
    const handle = await runtime().load(
      envReturning(
        '("obs", 1.0, True, False, {"s": "x", "i": 2, "n": None, "b": True, "l": [1], "d": Decimalish()})',
      ).replace('class OddEnv', 'class Decimalish:\n    def __float__(self):\n        return 2.5\n\nclass OddEnv'),
      {
        maxTurns: 1,
        timeoutMs: 10_000,
      },
    );
    await handle.reset(1, { timeoutMs: 10_000 });
    const step = await stepKeepingCrashes(handle, 'go', { timeoutMs: 10_000, coerce: true }, true, {});
    await handle.dispose();
    expect(step.info).toEqual({ i: 2, n: null, b: true, d: 2.5 });
  });

  it("reads a dict subclass's info through its own items(), as the reference's filter does", async () => {
    const info = await infoOf(
      `class OwnItems(dict):
    def items(self):
        return [("score", 3), ("name", "x")]`,
      'OwnItems(real=1)',
    );
    expect(info).toEqual({ score: 3 });
    const claims = await infoOf(
      `class ClaimsDict:
    __class__ = property(lambda self: dict)
    def items(self):
        return [("k", 2)]`,
      'ClaimsDict()',
    );
    expect(claims).toEqual({ k: 2 });
    const ownIter = await infoOf(
      `class OwnIter(dict):
    def __iter__(self):
        return iter(["ghost"])`,
      'OwnIter(real=1)',
    );
    expect(ownIter).toEqual({ real: 1 });
  });

  it('agrees with the reference on the returns its wrapper turns into -1, and on no other', () => {
    const losses = CASES.filter(([, , , [, reward, terminated]]) => reward === CRASH_REWARD && terminated).map(
      ([name]) => name,
    );
    expect(losses).toEqual(['a 4-tuple', 'a bare str', 'a reward float() cannot read']);
    expect(CASES.filter(([, , , , code]) => code !== null).map(([name]) => name)).toEqual(losses);
  });
});
