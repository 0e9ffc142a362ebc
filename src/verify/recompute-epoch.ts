import type { EnvironmentRecord, Episode, EnvStats } from '../core/records.ts';
import type { Checker } from './checker.ts';
import {
  advanceAverages,
  average,
  groupAdvantagesOf,
  HANG_ERRORS,
  returnOf,
  rewardOf,
  scaleOf,
  type Averages,
} from './formulas.ts';

/** The settings recomputation depends on (config.json's `config`). */
export interface VerifyConfig {
  reward: string;
  rolloutsPerEpoch: number;
  playsPerArm: number;
  /** The reference's failure rule: kept crashes, and only rollout 0's hangs penalised (absent: off). */
  crashesLose?: boolean;
  /** The reference's tool-use row masks (absent: off). */
  toolUseMasks?: boolean;
  /** The run's setting (absent: games). */
  setting?: string;
}

/** One epoch's stored records. */
export interface EpochRecords {
  epoch: number;
  environments: readonly EnvironmentRecord[];
  episodes: readonly Episode[];
}

/** What recomputing one epoch yields for the checks that follow (rows, metrics, memory). */
export interface EpochRecomputation {
  /** Recomputed return and advantage per episode id. */
  returns: Map<string, number>;
  advantages: Map<string, number>;
  /** Recomputed stats per scored (valid, not quarantined) environment id, in file order. */
  stats: Map<string, { stats: EnvStats }>;
  /** Ids of the environments quarantined this epoch (scored nowhere). */
  quarantined: Set<string>;
  designerScale: number;
  /** Skill averages after this epoch's update. */
  averages: Record<string, Averages>;
}

/** Share of an environment's planned unhinted plays whose loss quarantines it. */
export const QUARANTINE_AT = 0.5;

const EPISODES = 'episodes.jsonl';
const ENVIRONMENTS = 'environments.jsonl';

/** True for an unhinted play that counts (not dropped). */
export const keptUnhinted = (e: Episode): boolean => e.arm === 'nohint' && !e.dropped;

/** The plays of the earliest rollout with a kept unhinted play (r_nohint's rollout). */
function earliestRollout(kept: readonly Episode[]): Episode[] {
  let earliest = Infinity;
  for (const e of kept) earliest = Math.min(earliest, e.rollout);
  return kept.filter((e) => e.rollout === earliest);
}

// A kept crash is allowed only under the reference's failure rule, on a play that did not fail; a step crash ends the play with a terminal -1.
function checkCrash(e: Episode, crashesLose: boolean, check: Checker): void {
  if (e.crash === undefined) return;
  check.value(EPISODES, e.id, 'crash kept', crashesLose && e.error === null, true);
  if (e.crash.at !== 'step') return;
  const last = e.turns.at(-1);
  check.value(EPISODES, e.id, 'crash step', last ? [last.reward, last.terminated] : null, [-1, true]);
}

function checkEpisodes(
  records: EpochRecords,
  quarantined: ReadonlySet<string>,
  crashesLose: boolean,
  check: Checker,
): Pick<EpochRecomputation, 'returns' | 'advantages'> {
  const returns = new Map<string, number>();
  for (const e of records.episodes) {
    returns.set(e.id, returnOf(e.turns, e.error !== null));
    check.value(EPISODES, e.id, 'return', e.return, returns.get(e.id));
    check.value(EPISODES, e.id, 'dropped', e.dropped, e.arm === 'nohint' && e.error !== null);
    checkCrash(e, crashesLose, check);
  }
  const groups = new Map<string, Episode[]>();
  for (const e of records.episodes.filter((e) => keptUnhinted(e) && !quarantined.has(e.envId)))
    groups.set(`${e.envId}#${e.rollout}`, [...(groups.get(`${e.envId}#${e.rollout}`) ?? []), e]);
  const advantages = new Map<string, number>();
  for (const group of groups.values())
    groupAdvantagesOf(group.map((e) => returns.get(e.id)!)).forEach((a, i) => advantages.set(group[i]!.id, a));
  for (const e of records.episodes) {
    if (!advantages.has(e.id)) advantages.set(e.id, 0);
    check.value(EPISODES, e.id, 'advantage', e.advantage, advantages.get(e.id));
  }
  return { returns, advantages };
}

/**
 * Recomputes one epoch from its episodes' turns: which environments are quarantined (they count
 * nowhere after that), returns, agent advantages, every other environment's stats, rewards under
 * the run's variant, designer advantages and the skill averages, checking each stored value.
 */
export function recomputeEpoch(
  records: EpochRecords,
  config: VerifyConfig,
  prior: Readonly<Record<string, Averages>>,
  check: Checker,
): EpochRecomputation {
  const ownOf = (env: EnvironmentRecord) => records.episodes.filter((e) => e.envId === env.id);
  const lostOf = (env: EnvironmentRecord) =>
    ownOf(env).filter((e) => e.arm === 'nohint' && e.dropped && !e.retried).length;
  const designedValid = records.environments.filter((env) => env.status !== 'rejected');
  const quarantined = new Set(
    designedValid
      .filter((env) => lostOf(env) >= config.playsPerArm * config.rolloutsPerEpoch * QUARANTINE_AT)
      .map((env) => env.id),
  );
  const { returns, advantages } = checkEpisodes(records, quarantined, config.crashesLose === true, check);
  const r = (e: Episode) => returns.get(e.id)!;
  const scored = designedValid.filter((env) => !quarantined.has(env.id));
  for (const env of designedValid)
    check.value(ENVIRONMENTS, env.id, 'status', env.status, quarantined.has(env.id) ? 'quarantined' : 'valid');
  for (const env of records.environments)
    check.value(
      ENVIRONMENTS,
      env.id,
      'stats present',
      env.stats !== null,
      env.status !== 'rejected' && !quarantined.has(env.id),
    );
  const averages: Record<string, Averages> = { ...prior };
  for (const skill of new Set(scored.map((env) => env.skill))) {
    const plays = scored
      .filter((env) => env.skill === skill)
      .flatMap(ownOf)
      .filter(keptUnhinted);
    if (plays.length > 0) averages[skill] = advanceAverages(averages[skill], average(plays.map(r)));
  }
  const stats = new Map<string, { stats: EnvStats }>();
  for (const env of scored) {
    const own = ownOf(env);
    const window = own.filter(keptUnhinted);
    const first = earliestRollout(window).map(r);
    const hinted = own.filter((e) => e.arm === 'hint' && !e.dropped).map(r);
    const rHint = env.hint === null || hinted.length === 0 ? null : average(hinted);
    const regret = rHint === null ? 0 : rHint - average(first);
    const winRate = average(window.map(r));
    // Under the reference's rule the hung-game penalty list is rebuilt every rollout and only rollout 0's (the regeneration step's) reaches the designer.
    const hung = own.some(
      (e) => e.error !== null && HANG_ERRORS.includes(e.error.code) && (config.crashesLose !== true || e.rollout === 0),
    );
    const won = window.filter((e) => r(e) > 0);
    const s: EnvStats = {
      rHint,
      rNoHint: average(first),
      regret,
      winRate,
      fractionWon: first.length === 0 ? 0 : first.filter((x) => x > 0).length / first.length,
      designerReward: rewardOf(config.reward, {
        rHint,
        regret,
        winRate,
        plays: window.length,
        hung,
        slow: averages[env.skill]?.slow ?? 0,
      }),
      designerAdvantage: 0,
      designerGroupSize: scored.filter((other) => other.skill === env.skill).length,
      hung,
      droppedPlays: lostOf(env),
      turnsToWin: won.length === 0 ? null : average(won.map((e) => e.turns.length)),
    };
    stats.set(env.id, { stats: s });
  }
  const ids = new Set(scored.map((env) => env.id));
  const firstPlays = records.episodes.filter((e) => keptUnhinted(e) && e.rollout === 0 && ids.has(e.envId)).length;
  const designerScale = scaleOf(firstPlays, scored.length, config.rolloutsPerEpoch);
  for (const env of scored) {
    const mine = stats.get(env.id)!;
    const peers = scored
      .filter((other) => other.skill === env.skill)
      .map((other) => stats.get(other.id)!.stats.designerReward);
    mine.stats.designerAdvantage = (mine.stats.designerReward - average(peers)) * designerScale;
    for (const [field, value] of Object.entries(mine.stats))
      check.value(ENVIRONMENTS, env.id, `stats.${field}`, env.stats?.[field as keyof EnvStats], value);
  }
  return { returns, advantages, stats, quarantined, designerScale, averages };
}
