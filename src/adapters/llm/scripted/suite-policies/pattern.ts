// Scripted players of the suite's Pattern Recognition environments.
import { boxed, firstOf, grab, grabAll, numbersIn, type SuitePolicy } from './policy.ts';

const SKILL = 'Pattern Recognition';

/** Candidate rules a @ b = c the solver tries, simplest first. */
const TILE_RULES: Array<(a: number, b: number) => number> = [
  (a, b) => a + b,
  (a, b) => a * b,
  (a, b) => a - b,
  (a, b) => 2 * a + b,
  (a, b) => a + 2 * b,
  (a, b) => 2 * a + 3 * b,
  (a, b) => 3 * a + 2 * b,
  (a, b) => a * b + 1,
  (a, b) => a * b - 1,
  (a, b) => a * b + a,
  (a, b) => a * b - b,
  (a, b) => a * b + a + b,
  (a, b) => a * b - a - b,
  (a, b) => a * a + b,
  (a, b) => b * b - a,
  (a, b) => a * a + b * b,
  (a, b) => (a + b) * (a - b),
  (a, b) => (a + b) ** 2,
];

function missingTile(observations: readonly string[], rules: typeof TILE_RULES): string {
  const text = firstOf(observations);
  const rows = grabAll(text, /(\d+) @ (\d+) = (-?\d+)/g).map((row) => row.map(Number));
  const [qa, qb] = grab(text, /What is (\d+) @ (\d+)\?/).map(Number) as [number, number];
  const rule = rules.find((f) => rows.every(([a, b, c]) => f(a!, b!) === c)) ?? rules[0]!;
  return boxed(rule(qa, qb));
}

/** Encodes the target with per-position shifts read off the examples, extended as a progression or a repeating key. */
function cipher(observations: readonly string[], constant: boolean): string {
  const text = firstOf(observations);
  const shifts: number[] = [];
  for (const [plain, code] of grabAll(text, /(\w+) -> (\w+)/g)) {
    for (let i = 0; i < plain!.length; i++) shifts[i] = (code!.charCodeAt(i) - plain!.charCodeAt(i) + 26) % 26;
  }
  const step = (shifts[1]! - shifts[0]! + 26) % 26;
  const arithmetic = shifts.every((s, i) => s === (shifts[0]! + step * i) % 26);
  const period = [1, 2, 3].find((p) => shifts.every((s, i) => i < p || s === shifts[i - p])) ?? shifts.length;
  const shiftAt = (i: number) => (constant ? shifts[0]! : arithmetic ? shifts[0]! + step * i : shifts[i % period]!);
  const target = grab(text, /Encode: (\w+)\./)[0]!;
  return boxed(
    [...target].map((ch, i) => String.fromCharCode(((ch.charCodeAt(0) - 97 + shiftAt(i)) % 26) + 97)).join(''),
  );
}

const digitSum = (n: number) => [...String(n)].reduce((s, d) => s + Number(d), 0);
/** The rule family the Glow Rule observation lists. */
const GLOW_RULES: Array<(n: number) => boolean> = [
  ...[3, 4, 5, 6, 7, 8, 9].map((k) => (n: number) => n % k === 0),
  ...[3, 4, 5, 6].map((k) => (n: number) => n % k === 1),
  ...[5, 6, 7, 8].map((d) => (n: number) => n % 10 >= d),
  ...[15, 20, 25, 30, 35, 40, 45].map((t) => (n: number) => n > t),
  (n) => digitSum(n) % 2 === 0,
  (n) => digitSum(n) % 2 === 1,
];

function glow(observations: readonly string[]): string {
  const text = firstOf(observations);
  const lit = numbersIn(grab(text, /Glow: ([\d, ]+)\./)[0]!);
  const dark = numbersIn(grab(text, /Dark: ([\d, ]+)\./)[0]!);
  const rule = GLOW_RULES.find((f) => lit.every(f) && !dark.some(f)) ?? GLOW_RULES[0]!;
  return boxed(
    numbersIn(grab(text, /Classify ([\d, ]+) in this order/)[0]!)
      .map((n) => (rule(n) ? 'glow' : 'dark'))
      .join(', '),
  );
}

type Cell = [number, number];
const PIXEL_MOVES: Array<(r: number, c: number) => Cell> = [
  (r, c) => [r, 2 - c],
  (r, c) => [2 - r, c],
  (r, c) => [c, 2 - r],
  (r, c) => [2 - c, r],
  (r, c) => [2 - r, 2 - c],
  (r, c) => [c, r],
  (r, c) => [r, (c + 1) % 3],
  (r, c) => [(r + 1) % 3, c],
];
const moveGrid = (move: (r: number, c: number) => Cell) => (grid: string) => {
  const out = [0, 1, 2].map(() => ['.', '.', '.']);
  grid.split('/').forEach((row, r) =>
    [...row].forEach((ch, c) => {
      if (ch !== '#') return;
      const [nr, nc] = move(r, c);
      out[nr]![nc] = '#';
    }),
  );
  return out.map((row) => row.join('')).join('/');
};
const PIXEL_RULES: Array<(grid: string) => string> = [
  ...PIXEL_MOVES.map(moveGrid),
  (grid) => grid.replace(/[.#]/g, (ch) => (ch === '#' ? '.' : '#')),
];

function pixel(observations: readonly string[]): string {
  const text = firstOf(observations);
  const examples = grabAll(text, /\[([.#/]{11})\] -> \[([.#/]{11})\]/g);
  const test = grab(text, /Test: \[([.#/]{11})\]/)[0]!;
  const rule = PIXEL_RULES.find((f) => examples.every(([input, output]) => f(input!) === output)) ?? PIXEL_RULES[0]!;
  return boxed(rule(test));
}

/** The suite's Pattern Recognition players. */
export const PATTERN_POLICIES: readonly SuitePolicy[] = [
  // The losing line assumes the rule is plain addition.
  {
    title: 'Missing Tile',
    skill: SKILL,
    win: (obs) => missingTile(obs, TILE_RULES),
    lose: (obs) => missingTile(obs, TILE_RULES.slice(0, 1)),
  },
  // The losing line treats the code as one fixed shift.
  { title: 'Cipher Pairs', skill: SKILL, win: (obs) => cipher(obs, false), lose: (obs) => cipher(obs, true) },
  // The losing line calls every number a glow.
  { title: 'Glow Rule', skill: SKILL, win: glow, lose: () => boxed('glow, glow, glow, glow') },
  // The losing line copies the test grid unchanged.
  {
    title: 'Pixel Rule',
    skill: SKILL,
    win: pixel,
    lose: (obs) => boxed(grab(firstOf(obs), /Test: \[([.#/]{11})\]/)[0]!),
  },
];
