// The concurrency bench's ideal, kept free of Node so the browser variant's page computes it too.
import type { EpochResult } from '../../src/core/loop/epoch.ts';

/** The longest chain of requests that must follow one another: a slot's design attempts, then the longer of its longest unhinted play and its hint plus its longest hinted play. */
export function criticalPath(result: Pick<EpochResult, 'environments' | 'episodes'>): number {
  return Math.max(
    ...result.environments.map((env) => {
      const turns = (arm: 'hint' | 'nohint') =>
        Math.max(0, ...result.episodes.filter((e) => e.envId === env.id && e.arm === arm).map((e) => e.turns.length));
      return (
        env.attempts.length +
        (env.status === 'valid' ? Math.max(turns('nohint'), (env.hint === null ? 0 : 1) + turns('hint')) : 0)
      );
    }),
  );
}
