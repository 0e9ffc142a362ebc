// Shared pieces of the suite's scripted policies: the policy shape and small observation parsers.

/** The next action of a scripted player, given the observations so far (the first is reset's). */
export type Play = (observations: readonly string[]) => string;

/** A scripted player of one built-in suite environment: a winning line and a plausible losing one. */
export interface SuitePolicy {
  /** The environment's title, as in the `[Title]` that starts its first observation. */
  title: string;
  /** The skill the environment trains (one of GAME_SKILLS). */
  skill: string;
  /** Solves the instance from the observation text alone. */
  win: Play;
  /** A plausible line that loses (a naive guess or a classic mistake). */
  lose: Play;
}

/** The observation without the hint the loop may append to a first observation. */
export function withoutHint(observation: string): string {
  const at = observation.indexOf('\n\nHINT:');
  return at < 0 ? observation : observation.slice(0, at);
}

/** The first observation (reset's), without a hint. */
export const firstOf = (observations: readonly string[]): string => withoutHint(observations[0] ?? '');

/** The newest observation, without a hint. */
export const latestOf = (observations: readonly string[]): string =>
  withoutHint(observations[observations.length - 1] ?? '');

/** An action: `text` inside `\boxed{}`. */
export const boxed = (text: string | number): string => `\\boxed{${text}}`;

/** The capture groups of `pattern`'s first match in `text`; throws when the observation does not have it. */
export function grab(text: string, pattern: RegExp): string[] {
  const match = pattern.exec(text);
  if (!match) throw new Error(`expected ${pattern} in the observation: ${text.slice(0, 120)}`);
  return match.slice(1).map((group) => group ?? '');
}

/** The capture groups of every match of the global `pattern` in `text`. */
export function grabAll(text: string, pattern: RegExp): string[][] {
  return [...text.matchAll(pattern)].map((match) => match.slice(1).map((group) => group ?? ''));
}

/** Every whole number in `text`, in order. */
export const numbersIn = (text: string): number[] => (text.match(/-?\d+/g) ?? []).map(Number);

/** Every ordering of `items`. */
export function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Every subset of `items`, as a list of lists. */
export function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => all.concat(all.map((s) => [...s, item])), [[]]);
}

/** Breadth-first search over states from `start` to the first state `done` accepts; the moves, or null. */
export function shortestMoves<S>(
  start: S,
  done: (state: S) => boolean,
  moves: readonly string[],
  apply: (state: S, move: string) => S,
  key: (state: S) => string,
): string[] | null {
  const queue: Array<[S, string[]]> = [[start, []]];
  const seen = new Set([key(start)]);
  for (let i = 0; i < queue.length; i++) {
    const [state, path] = queue[i]!;
    if (done(state)) return path;
    for (const move of moves) {
      const next = apply(state, move);
      if (seen.has(key(next))) continue;
      seen.add(key(next));
      queue.push([next, [...path, move]]);
    }
  }
  return null;
}
