// Scripted players of the suite's Causal Inference environments.
import { boxed, firstOf, grab, grabAll, latestOf, type SuitePolicy } from './policy.ts';

const SKILL = 'Causal Inference';

const FACTORS = ['light', 'water', 'compost', 'music'];
const TRIAL_PLAN = ['none', ...FACTORS];
const listed = (text: string) => (text ? text.split(', ') : []);

/** Runs all-off and one-factor trials, then names the factors that add growth over all-off. */
function greenhouse(observations: readonly string[]): string {
  const trials = grabAll(latestOf(observations), /Trial \[([a-z, ]*)\] (\d+) cm/g).map(
    ([on, g]) => [listed(on!), Number(g)] as const,
  );
  const growth = (plan: string) =>
    trials.find(([on]) => (plan === 'none' ? on.length === 0 : on.length === 1 && on[0] === plan))?.[1];
  const next = TRIAL_PLAN.find((plan) => growth(plan) === undefined);
  if (next) return boxed(`test ${next}`);
  return boxed(`causes ${FACTORS.filter((f) => growth(f)! > growth('none')!).join(', ')}`);
}

/** Trusts the old records: the factors that were on when growth was highest. */
function greenhouseRecords(observations: readonly string[]): string {
  const records = grabAll(firstOf(observations), /Record \[([a-z, ]*)\] (\d+) cm/g);
  const top = records.reduce((a, b) => (Number(b[1]) > Number(a[1]) ? b : a));
  return boxed(`causes ${top[0]}`);
}

const TILES = ['A', 'B', 'C', 'D', 'E'];

/** Pushes every tile once; a tile's direct trigger is the smallest pushed set, other than its own, that it falls in. */
function domino(observations: readonly string[]): string {
  const falls = new Map(
    grabAll(latestOf(observations), /push ([A-E]) -> ([A-E, ]+)/g).map(([t, f]) => [t!, listed(f!.trim())]),
  );
  const next = TILES.find((t) => !falls.has(t));
  if (next) return boxed(`push ${next}`);
  const links = TILES.flatMap((t) => {
    const triggers = TILES.filter((u) => u !== t && falls.get(u)!.includes(t)).sort(
      (a, b) => falls.get(a)!.length - falls.get(b)!.length,
    );
    return triggers.length > 0 ? [`${triggers[0]}>${t}`] : [];
  });
  return boxed(`links ${links.join(', ')}`);
}

function wards(observations: readonly string[]) {
  const text = firstOf(observations);
  const group = (name: string) =>
    new Map(
      grabAll(grab(text, new RegExp(`${name} cases: ([^.]*)\\.`))[0]!, /(\w+) (\d+) of (\d+) recovered/g).map(
        ([d, r, n]) => [d!, [Number(r), Number(n)]] as const,
      ),
    );
  return { mild: group('Mild'), severe: group('Severe') };
}

/** Reads the log's beat from the blink turns nobody caused, then tests the buttons on off-beat turns. */
function kiosk(observations: readonly string[]): string {
  const text = latestOf(observations);
  const log = grabAll(text, /Turn (\d+): (?:([A-E]) pressed|no press), (blink|dark)/g).map(([t, b, lit]) => ({
    turn: Number(t),
    button: b || null,
    lit: lit === 'blink',
  }));
  const next = Number(grab(text, /Next is turn (\d+)/)[0]);
  const visitorBlinks = log.filter((e) => e.turn <= 9 && e.lit).map((e) => e.turn);
  const period = visitorBlinks[1]! - visitorBlinks[0]!;
  const onBeat = (turn: number) => (turn - visitorBlinks[0]!) % period === 0;
  const found = log.find((e) => e.button && e.lit && !onBeat(e.turn));
  if (found) return boxed(`answer ${found.button}`);
  const left = TILES.filter((b) => !log.some((e) => e.button === b && !e.lit));
  if (left.length === 1) return boxed(`answer ${left[0]}`);
  return onBeat(next) ? boxed('wait') : boxed(`press ${left[0]}`);
}

/** Trusts the correlation: the button most often pressed when the lamp blinked. */
function kioskHabit(observations: readonly string[]): string {
  const presses = grabAll(firstOf(observations), /Turn \d+: ([A-E]) pressed, blink/g).map(([b]) => b!);
  const count = (b: string) => presses.filter((p) => p === b).length;
  return boxed(`answer ${[...TILES].sort((a, b) => count(b) - count(a))[0]}`);
}

/** The suite's Causal Inference players. */
export const CAUSAL_POLICIES: readonly SuitePolicy[] = [
  { title: 'Greenhouse Trials', skill: SKILL, win: greenhouse, lose: greenhouseRecords },
  // The losing line pushes A once and guesses a single chain.
  {
    title: 'Domino Garden',
    skill: SKILL,
    win: domino,
    lose: (obs) => (obs.length < 2 ? boxed('push A') : boxed('links A>B, B>C, C>D, D>E')),
  },
  {
    title: 'Ward Records',
    skill: SKILL,
    // Compares recovery within each severity group and picks the best average of the two group rates.
    win: (obs) => {
      const { mild, severe } = wards(obs);
      const rate = (d: string) => mild.get(d)![0] / mild.get(d)![1] + severe.get(d)![0] / severe.get(d)![1];
      return boxed([...mild.keys()].reduce((a, b) => (rate(b) > rate(a) ? b : a)));
    },
    // Pools the two groups, which a treatment given mostly to mild cases wins.
    lose: (obs) => {
      const { mild, severe } = wards(obs);
      const rate = (d: string) => (mild.get(d)![0] + severe.get(d)![0]) / (mild.get(d)![1] + severe.get(d)![1]);
      return boxed([...mild.keys()].reduce((a, b) => (rate(b) > rate(a) ? b : a)));
    },
  },
  { title: 'Blinking Kiosk', skill: SKILL, win: kiosk, lose: kioskHabit },
];
