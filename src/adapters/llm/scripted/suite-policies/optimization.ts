// Scripted players of the suite's Optimization environments.
import {
  boxed,
  firstOf,
  grab,
  grabAll,
  latestOf,
  numbersIn,
  permutations,
  shortestMoves,
  subsets,
  type SuitePolicy,
} from './policy.ts';

const SKILL = 'Optimization';

/** Cheapest route cost from A to G, comparing (roads, toll) pairs in order: `fewestRoads` puts the road count first. */
function tollRoute(observations: readonly string[], fewestRoads: boolean): number {
  const roads = grabAll(firstOf(observations), /([A-G])-([A-G]) (\d+)/g).flatMap(([x, y, toll]) => [
    [x!, y!, Number(toll)] as const,
    [y!, x!, Number(toll)] as const,
  ]);
  const best = new Map<string, [number, number]>([['A', [0, 0]]]);
  const better = (a: [number, number], b: [number, number] | undefined) =>
    !b || (fewestRoads ? a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]) : a[1] < b[1]);
  // Bellman-Ford: seven towns settle within seven rounds.
  for (let round = 0; round < 7; round++) {
    for (const [from, to, toll] of roads) {
      const here = best.get(from);
      if (!here) continue;
      const via: [number, number] = [here[0] + 1, here[1] + toll];
      if (better(via, best.get(to))) best.set(to, via);
    }
  }
  return best.get('G')?.[1] ?? 0;
}

function ovenTimes(observations: readonly string[]): number[] {
  return numbersIn(grab(firstOf(observations), /Baking times: ([\d, ]+) minutes/)[0]!);
}

const JUG_MOVES = ['fill A', 'fill B', 'empty A', 'empty B', 'pour A B', 'pour B A'];
type Jugs = [number, number];

function jugs(observations: readonly string[]) {
  const first = firstOf(observations);
  const caps = grab(first, /Jug A holds up to (\d+) litres and jug B up to (\d+)/).map(Number) as Jugs;
  const target = Number(grab(first, /Get exactly (\d+) litre/)[0]);
  const now = grab(latestOf(observations), /Now: A has (\d+), B has (\d+)/).map(Number) as Jugs;
  const apply = ([a, b]: Jugs, move: string): Jugs => {
    if (move === 'fill A') return [caps[0], b];
    if (move === 'fill B') return [a, caps[1]];
    if (move === 'empty A') return [0, b];
    if (move === 'empty B') return [a, 0];
    const flow = move === 'pour A B' ? Math.min(a, caps[1] - b) : -Math.min(b, caps[0] - a);
    return [a - flow, b + flow];
  };
  return { caps, target, now, apply };
}

/** The routine of filling the bigger jug and pouring it into the smaller one, emptying the smaller when full. */
function jugRoutine(observations: readonly string[]): string {
  const { caps, now } = jugs(observations);
  const [big, small] = caps[0] > caps[1] ? [0, 1] : [1, 0];
  const name = 'AB';
  if (now[big] === 0) return boxed(`fill ${name[big]}`);
  if (now[small] === caps[small]) return boxed(`empty ${name[small]}`);
  return boxed(`pour ${name[big]} ${name[small]}`);
}

function courier(observations: readonly string[]) {
  const spots = new Map(
    grabAll(firstOf(observations), /\b([HPQRST]) \((\d+), (\d+)\)/g).map(
      ([s, x, y]) => [s!, [Number(x), Number(y)]] as const,
    ),
  );
  const [at, visited] = grab(latestOf(observations), /Now at ([HPQRST]); visited: ([^;]*);/);
  const left = [...spots.keys()].filter((s) => s !== 'H' && s !== at && !visited!.split(', ').includes(s));
  const dist = (a: string, b: string) => {
    const [p, q] = [spots.get(a)!, spots.get(b)!];
    return Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]);
  };
  return { at: at!, left, dist };
}

/** The first stop of the shortest way through every remaining stop and back to H. */
function courierBest(observations: readonly string[]): string {
  const { at, left, dist } = courier(observations);
  const length = (route: string[]) =>
    [at, ...route, 'H'].reduce((sum, s, i, path) => (i === 0 ? 0 : sum + dist(path[i - 1]!, s)), 0);
  const best = permutations(left).reduce((a, b) => (length(b) < length(a) ? b : a));
  return boxed(`go ${best[0] ?? 'H'}`);
}

/** The nearest remaining stop (alphabetical on ties), then H. */
function courierNearest(observations: readonly string[]): string {
  const { at, left, dist } = courier(observations);
  const next = [...left].sort((a, b) => dist(at, a) - dist(at, b) || (a < b ? -1 : 1))[0];
  return boxed(`go ${next ?? 'H'}`);
}

/** The suite's Optimization players. */
export const OPTIMIZATION_POLICIES: readonly SuitePolicy[] = [
  // The losing line takes the route with the fewest roads.
  {
    title: 'Toll Roads',
    skill: SKILL,
    win: (obs) => boxed(tollRoute(obs, false)),
    lose: (obs) => boxed(tollRoute(obs, true)),
  },
  {
    title: 'Twin Ovens',
    skill: SKILL,
    win: (obs) => {
      const times = ovenTimes(obs);
      const total = times.reduce((a, b) => a + b, 0);
      return boxed(
        Math.min(
          ...subsets(times)
            .map((s) => s.reduce((a, b) => a + b, 0))
            .map((s) => Math.max(s, total - s)),
        ),
      );
    },
    // Puts each tray, in the listed order, into the oven that frees up first.
    lose: (obs) => {
      const ovens = [0, 0];
      for (const t of ovenTimes(obs)) ovens[ovens[0]! <= ovens[1]! ? 0 : 1]! += t;
      return boxed(Math.max(...ovens));
    },
  },
  {
    title: 'Jug Measure',
    skill: SKILL,
    win: (obs) => {
      const { target, now, apply } = jugs(obs);
      return boxed(
        shortestMoves(
          now,
          (s) => s.includes(target),
          JUG_MOVES,
          apply,
          (s) => s.join(','),
        )?.[0] ?? 'fill A',
      );
    },
    lose: jugRoutine,
  },
  // The losing line always drives to the nearest stop.
  { title: 'Courier Loop', skill: SKILL, win: courierBest, lose: courierNearest },
];
