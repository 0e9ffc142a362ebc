// Scripted players of the suite's Spatial Reasoning environments.
import { boxed, firstOf, grab, grabAll, latestOf, shortestMoves, type SuitePolicy } from './policy.ts';

const SKILL = 'Spatial Reasoning';

const HEADINGS = ['north', 'east', 'south', 'west'];
const STEP: Record<string, [number, number]> = { north: [0, 1], east: [1, 0], south: [0, -1], west: [-1, 0] };

/** Replays the rover's log; `mirrored` swaps left and right turns (the classic slip). */
function roverEnd(observations: readonly string[], mirrored: boolean): string {
  const text = firstOf(observations);
  const [x0, y0, facing] = grab(text, /starts at x = (-?\d+), y = (-?\d+) facing (\w+)/);
  let [x, y, h] = [Number(x0), Number(y0), HEADINGS.indexOf(facing!)];
  for (const command of grab(text, /Its log: (.*?)\. F n drives/)[0]!.split(', ')) {
    if (command === 'L' || command === 'R') {
      h = (h + ((command === 'R') !== mirrored ? 1 : 3)) % 4;
      continue;
    }
    const [dx, dy] = STEP[HEADINGS[h]!]!;
    const n = Number(command.slice(1)) * (command[0] === 'F' ? 1 : -1);
    [x, y] = [x + dx * n, y + dy * n];
  }
  return boxed(`${x}, ${y}`);
}

const SLIDES: Record<string, [number, number]> = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] };

/** The first slide of a fewest-slides route from the map in the newest observation. */
function iceMove(observations: readonly string[]): string {
  const rows = latestOf(observations)
    .split('\n')
    .filter((line) => /^[.#PG]{7}$/.test(line));
  const find = (ch: string): [number, number] => {
    const r = rows.findIndex((row) => row.includes(ch));
    return [r, rows[r]!.indexOf(ch)];
  };
  const open = (r: number, c: number) =>
    r >= 0 && r < rows.length && c >= 0 && c < rows[r]!.length && rows[r]![c] !== '#';
  const slide = ([r, c]: [number, number], move: string): [number, number] => {
    const [dr, dc] = SLIDES[move]!;
    while (open(r + dr, c + dc)) [r, c] = [r + dr, c + dc];
    return [r, c];
  };
  const goal = find('G');
  const path = shortestMoves(
    find('P'),
    ([r, c]) => r === goal[0] && c === goal[1],
    Object.keys(SLIDES),
    slide,
    (s) => s.join(','),
  );
  return boxed(path?.[0] ?? 'up');
}

type Grid = string[];
const turn = (g: Grid): Grid =>
  g.map((_, r) =>
    g
      .map((row) => row[r])
      .reverse()
      .join(''),
  );
const mirror = (g: Grid): Grid => g.map((row) => [...row].reverse().join(''));
const turnsOf = (g: Grid): string[] => [g, turn(g), turn(turn(g)), turn(turn(turn(g)))].map((t) => t.join('/'));

/** The candidate letter that is one of the turns of `shape` (the original, or its mirror image). */
function tileChoice(observations: readonly string[], flipped: boolean): string {
  const text = firstOf(observations);
  const original = grab(text, /Original \[([.#/]{19})\]/)[0]!.split('/');
  const targets = turnsOf(flipped ? mirror(original) : original);
  const candidates = grabAll(text, /([ABCD]) \[([.#/]{19})\]/g);
  return boxed(candidates.find(([, grid]) => targets.includes(grid!))?.[0] ?? 'A');
}

const CHEST_PLAN: Array<[number, number]> = [
  [0, 0],
  [0, 8],
  [8, 0],
];

/** Digs two corners, then the one square whose walking distances match both. */
function chestDig(observations: readonly string[]): string {
  const digs = grabAll(
    latestOf(observations),
    /Dig at row (\d+), column (\d+): nothing; the chest is (\d+) steps away/g,
  ).map((d) => d.map(Number));
  const cells: Array<[number, number]> = [];
  for (let r = 0; r < 9; r++)
    for (let c = 0; c < 9; c++)
      if (digs.every(([dr, dc, d]) => Math.abs(r - dr!) + Math.abs(c - dc!) === d)) cells.push([r, c]);
  const next =
    cells.length === 1
      ? cells[0]!
      : (CHEST_PLAN.find(([r, c]) => !digs.some(([dr, dc]) => dr === r && dc === c)) ?? cells[0] ?? [4, 4]);
  return boxed(`dig ${next[0]} ${next[1]}`);
}

/** The suite's Spatial Reasoning players. */
export const SPATIAL_POLICIES: readonly SuitePolicy[] = [
  // The losing line swaps left and right turns.
  { title: 'Rover Log', skill: SKILL, win: (obs) => roverEnd(obs, false), lose: (obs) => roverEnd(obs, true) },
  // The losing line keeps sliding up.
  { title: 'Ice Rink', skill: SKILL, win: iceMove, lose: () => boxed('up') },
  // The losing line picks the mirror image.
  { title: 'Tile Turner', skill: SKILL, win: (obs) => tileChoice(obs, false), lose: (obs) => tileChoice(obs, true) },
  // The losing line keeps digging in the middle of the field.
  { title: 'Buried Chest', skill: SKILL, win: chestDig, lose: () => boxed('dig 4 4') },
];
