// Scripted players of the suite's Logical Deduction environments.
import { boxed, firstOf, grab, grabAll, latestOf, permutations, type SuitePolicy } from './policy.ts';

const SKILL = 'Logical Deduction';

type Places = ReadonlyMap<string, number>;
const CLUES: Array<[RegExp, (p: Places, x: string, y: string) => boolean]> = [
  [/(\w+) finished ahead of (\w+)\./g, (p, x, y) => p.get(x)! < p.get(y)!],
  [/(\w+) finished right behind (\w+)\./g, (p, x, y) => p.get(x) === p.get(y)! + 1],
  [/(\w+) and (\w+) did not finish next to each other\./g, (p, x, y) => Math.abs(p.get(x)! - p.get(y)!) > 1],
  [/(\w+) finished in place (\d)\./g, (p, x, k) => p.get(x) === Number(k)],
  [/(\w+) did not finish in place (\d)\./g, (p, x, k) => p.get(x) !== Number(k)],
];

/** Tries every finishing order against every clue. */
function finishOrder(observations: readonly string[]): string {
  const text = firstOf(observations);
  const runners = grab(text, /Five runners, (.+?), finished/)[0]!.split(/, | and /);
  const clues = grab(text, /Clues: (.*?) Give the finishing order/)[0]!;
  const tests = CLUES.flatMap(([pattern, holds]) =>
    grabAll(clues, pattern).map(
      ([x, y]) =>
        (p: Places) =>
          holds(p, x!, y!),
    ),
  );
  const order = permutations(runners).find((o) =>
    tests.every((test) => test(new Map(o.map((name, i) => [name, i + 1])))),
  );
  return boxed((order ?? runners).join(' '));
}

const INSCRIPTIONS: Array<[RegExp, (gem: number, i: number) => boolean]> = [
  [/^The gem is in casket (\d)\.$/, (gem, i) => gem === i],
  [/^The gem is not in casket (\d)\.$/, (gem, i) => gem !== i],
  [/higher than (\d)/, (gem, i) => gem > i],
  [/lower than (\d)/, (gem, i) => gem < i],
  [/^The gem is in an (odd)-numbered/, (gem) => gem % 2 === 1],
  [/^The gem is in an (even)-numbered/, (gem) => gem % 2 === 0],
];

/** For each casket, how many inscriptions would be true with the gem there. */
function casketCounts(observations: readonly string[]): { counts: number[]; truths: number } {
  const text = firstOf(observations);
  const labels = grabAll(text, /Casket \d: "([^"]*)"/g).map(([label]) => label!);
  const truths = Number(grab(text, /Exactly (\d+) of the 5 inscriptions are true/)[0]);
  const holds = (label: string, gem: number) =>
    INSCRIPTIONS.some(([pattern, test]) => {
      const match = pattern.exec(label);
      return match !== null && test(gem, Number(match[1]));
    });
  const counts = [1, 2, 3, 4, 5].map((gem) => labels.filter((label) => holds(label, gem)).length);
  return { counts, truths };
}

type Suspect = { name: string; looks: Record<string, boolean> };
const FEATURES = ['hat', 'glasses', 'scarf', 'boots'];

function lineup(observations: readonly string[]) {
  const suspects: Suspect[] = grabAll(
    firstOf(observations),
    /(\w+) \(hat (yes|no), glasses (yes|no), scarf (yes|no), boots (yes|no)\)/g,
  ).map(([name, ...values]) => ({
    name: name!,
    looks: Object.fromEntries(FEATURES.map((f, i) => [f, values[i] === 'yes'])),
  }));
  const latest = latestOf(observations);
  const answers = grabAll(grab(latest, /Witness answers so far: ([^.]*)\./)[0]!, /(\w+)=(yes|no)/g).map(
    ([f, v]) => [f!, v === 'yes'] as const,
  );
  const left = Number(grab(latest, /Questions left: (\d+)/)[0]);
  return { suspects, answers, left };
}

/** The first feature whose answer, either way, leaves a group that the remaining questions can still split to one. */
function splitter(group: readonly Suspect[], left: number): string | null {
  for (const feature of FEATURES) {
    const yes = group.filter((s) => s.looks[feature]);
    const no = group.filter((s) => !s.looks[feature]);
    if (left > 0 && yes.length > 0 && no.length > 0 && solvable(yes, left - 1) && solvable(no, left - 1))
      return feature;
  }
  return null;
}
const solvable = (group: readonly Suspect[], left: number): boolean =>
  group.length <= 1 || splitter(group, left) !== null;

function closure(observations: readonly string[], rounds: number): string[] {
  const text = firstOf(observations);
  const active = new Set(grab(text, /Signals start active: ([a-z, ]+)\./)[0]!.split(', '));
  const rules = grabAll(grab(text, /Rules: (.*?)\. A rule fires/)[0]!, /if ([a-z ]+?) then ([a-z]+)/g).map(
    ([needs, result]) => ({ needs: needs!.split(' and '), result: result! }),
  );
  for (let round = 0; round < rounds; round++) {
    const fired = rules.filter((rule) => rule.needs.every((n) => active.has(n))).map((rule) => rule.result);
    if (fired.every((r) => active.has(r))) break;
    fired.forEach((r) => active.add(r));
  }
  return [...active].sort();
}

/** The suite's Logical Deduction players. */
export const LOGIC_POLICIES: readonly SuitePolicy[] = [
  {
    title: 'Finish Line',
    skill: SKILL,
    win: finishOrder,
    // Guesses the runners in alphabetical order.
    lose: (obs) =>
      boxed(
        grab(firstOf(obs), /Five runners, (.+?), finished/)[0]!
          .split(/, | and /)
          .join(' '),
      ),
  },
  {
    title: 'Gem Caskets',
    skill: SKILL,
    win: (obs) => {
      const { counts, truths } = casketCounts(obs);
      return boxed(counts.indexOf(truths) + 1);
    },
    // Trusts the majority: the casket that makes the most inscriptions true.
    lose: (obs) => {
      const { counts } = casketCounts(obs);
      return boxed(counts.indexOf(Math.max(...counts)) + 1);
    },
  },
  {
    title: 'Lineup',
    skill: SKILL,
    win: (obs) => {
      const { suspects, answers, left } = lineup(obs);
      const group = suspects.filter((s) => answers.every(([f, v]) => s.looks[f] === v));
      const ask = group.length > 1 ? splitter(group, left) : null;
      return ask ? boxed(`ask ${ask}`) : boxed(`accuse ${group[0]?.name ?? suspects[0]!.name}`);
    },
    // Asks about the hat, then misreads the answer.
    lose: (obs) => {
      const { suspects, answers } = lineup(obs);
      const hat = answers.find(([f]) => f === 'hat');
      if (!hat) return boxed('ask hat');
      return boxed(`accuse ${(suspects.find((s) => s.looks.hat !== hat[1]) ?? suspects[0]!).name}`);
    },
  },
  {
    title: 'Signal Rules',
    skill: SKILL,
    win: (obs) => boxed(closure(obs, Infinity).join(', ')),
    // Fires the rules once and stops, missing the chain reactions.
    lose: (obs) => boxed(closure(obs, 1).join(', ')),
  },
];
