import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { envError, isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { SpadeEvent } from './events.ts';
import { playEpisode, type PlayedEpisode } from './play-episode.ts';
import { deriveSeed } from './random.ts';
import { agentSettings } from './agent-settings.ts';
import type { Arm, EnvironmentRecord, Episode } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import { FreshInstances, HANG_CODES, playsPerInterpreter } from './fresh-instances.ts';
import { clipEpisode } from './stored-episode.ts';
import { effectiveConcurrency, lookAheadOf, Scheduler, type Gate, type WorkUnit } from './scheduler.ts';

/** One play of an environment's schedule. */
export interface PlannedPlay {
  rollout: number;
  arm: Arm;
  index: number;
  seed: number;
}

/**
 * The plays of one environment: rollout 0 has K unhinted plays then the hinted ones (on the first
 * seeds of the unhinted ones), later rollouts K unhinted plays each. No hint, no hint arm.
 */
export function playSchedule(config: Config, envId: string, withHint = true): PlannedPlay[] {
  const seed = (rollout: number, index: number) => deriveSeed(config.seed, envId, 'play', rollout, index);
  const schedule: PlannedPlay[] = [];
  for (let rollout = 0; rollout < config.rolloutsPerEpoch; rollout++) {
    for (let index = 0; index < config.playsPerArm; index++) schedule.push({ rollout, arm: 'nohint', index, seed: seed(rollout, index) });
    if (rollout === 0 && withHint) {
      for (let index = 0; index < config.hintPlays; index++) schedule.push({ rollout, arm: 'hint', index, seed: seed(0, index) });
    }
  }
  return schedule;
}

/** The id of a play (`-failed` marks a first attempt that was retried). */
function playId(envId: string, play: PlannedPlay): string {
  return `${envId}-r${play.rollout}-${play.arm}-${play.index}`;
}

/** A play's place in its environment's schedule, as a sort key (the same whether or not there is a hint arm). */
function scheduleKey(play: PlannedPlay): number[] {
  return [play.rollout, play.arm === 'hint' ? 1 : 0, play.index];
}

function failedPlay(code: EnvErrorCode, message: string): PlayedEpisode {
  return { firstObservation: '', messages: [], turns: [], return: 0, error: { code, message }, usage: { promptTokens: 0, completionTokens: 0 } };
}

/** What one play produced: its episodes (a retried first attempt, then the play), or that it was not run after an earlier hang. */
type PlayOutcome = { records: Array<{ id: string; played: PlayedEpisode; dropped: boolean; retried: boolean }>; hang: EnvErrorCode | null } | 'not run';

/**
 * The plays of one valid environment as units of work, with SPADE's failure rules: a fresh
 * module and instance per play, in interpreters that never serve both arms; an unhinted play that fails is retried once and then dropped; a hinted play
 * that fails scores 0; a hang skips the environment's remaining plays (unhinted dropped, hinted
 * scored 0). Plays may run at the same time, so the hang rule is applied in schedule order: every
 * play after the first hang in the schedule is recorded as skipped, even if it ran (and one not
 * started yet is not run). Episodes are emitted and returned in schedule order, as each becomes final.
 */
export class EnvironmentPlays {
  private readonly instances: FreshInstances;
  private readonly outcomes = new Map<string, PlayOutcome>();
  private schedule: PlannedPlay[] | null = null;
  private firstHang: number[] | null = null;
  private cursor = 0;
  private hangCode: EnvErrorCode | null = null;
  private pending = 0;
  /** Episodes final so far, in schedule order. */
  readonly episodes: Episode[] = [];

  constructor(
    private readonly env: EnvironmentRecord,
    private readonly model: ChatModel,
    sandbox: SandboxRuntime,
    private readonly config: Config,
    private readonly emit: (event: SpadeEvent) => void,
    private readonly lessons: readonly string[] = [],
  ) {
    this.instances = new FreshInstances(sandbox, env.code, config);
  }

  /**
   * Units for the environment's plays of one arm (`order` prefixes each unit's sort key); unhinted
   * ones can start before the hint. Plays of one lane (see `playsPerInterpreter`) share an
   * interpreter, one after another in index order: the first reserves a booted interpreter ahead of
   * its turn, each later one waits for the one before it.
   */
  units(arm: Arm, order: readonly number[]): WorkUnit[] {
    const plays = playSchedule(this.config, this.env.id, arm === 'hint').filter((p) => p.arm === arm);
    const perLane = playsPerInterpreter(this.config);
    this.pending += plays.length;
    return plays.map((play) => {
      const lane = `${play.rollout}-${play.arm}-${Math.floor(play.index / perLane)}`;
      return this.instances.inLane(lane, { stage: 'play', order: [...order, ...scheduleKey(play)], run: () => this.runPlay(play, lane) });
    });
  }

  /** Fixes the schedule once the hint is known (no hint, no hint arm); emits what is final. */
  setHint(withHint: boolean): void {
    this.schedule = playSchedule(this.config, this.env.id, withHint);
    this.flush();
    void this.closeWhenDone().catch(() => undefined);
  }

  /** True once every play is final. */
  get done(): boolean {
    return this.schedule !== null && this.cursor === this.schedule.length;
  }

  /** Retires the environment's interpreters. */
  close(): Promise<void> {
    return this.instances.close();
  }

  private async runPlay(play: PlannedPlay, lane: string): Promise<void> {
    const id = playId(this.env.id, play);
    const key = scheduleKey(play);
    if (this.firstHang && later(key, this.firstHang)) {
      this.outcomes.set(id, 'not run');
    } else {
      const outcome = await this.play(play, id, lane);
      if (outcome.hang && (!this.firstHang || later(this.firstHang, key))) this.firstHang = key;
      this.outcomes.set(id, outcome);
    }
    this.pending -= 1;
    this.flush();
    await this.closeWhenDone();
  }

  // Frees the environment's interpreters as soon as no play of it can still run.
  private async closeWhenDone(): Promise<void> {
    if (this.pending === 0 && this.done) await this.close();
  }

  private async play(play: PlannedPlay, id: string, lane: string): Promise<Exclude<PlayOutcome, 'not run'>> {
    const records: Exclude<PlayOutcome, 'not run'>['records'] = [];
    let played = await this.attempt(play, `${this.config.seed}:${id}`, lane);
    if (played.error && !HANG_CODES.has(played.error.code) && play.arm === 'nohint') {
      records.push({ id: `${id}-failed`, played, dropped: true, retried: true });
      // The retry gets an interpreter of its own: a seed seen twice in one interpreter would tell it that it is an unhinted play.
      played = await this.attempt(play, `${this.config.seed}:${id}:retry`, null);
    }
    const hang = played.error && HANG_CODES.has(played.error.code) ? played.error.code : null;
    if (played.error && play.arm === 'hint') played = { ...played, return: 0 };
    records.push({ id, played, dropped: played.error !== null && play.arm === 'nohint', retried: false });
    return { records, hang };
  }

  private async attempt(play: PlannedPlay, seedKey: string, lane: string | null): Promise<PlayedEpisode> {
    const { env, config } = this;
    try {
      return await this.instances.play(lane, (handle) =>
        playEpisode(this.model, handle, {
          seed: play.seed,
          hint: play.arm === 'hint' ? env.hint : null,
          lessons: this.lessons,
          ...agentSettings(config, this.model),
          modelSeedKey: seedKey,
          onToken: (delta) =>
            this.emit({ type: 'token', epoch: env.epoch, source: { purpose: 'agent', slot: env.slot, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout }, delta }),
          onTurn: (turnIndex, turn) => this.emit({ type: 'turn', epoch: env.epoch, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout, turnIndex, turn }),
        }),
      );
    } catch (error) {
      if (!isEnvError(error)) throw error;
      return failedPlay(error.code, error.message);
    }
  }

  /** Emits, in schedule order, every play whose episodes can no longer change. */
  private flush(): void {
    // Before the hint is known only the first rollout's unhinted plays have a fixed place.
    const schedule = this.schedule ?? playSchedule(this.config, this.env.id, false).slice(0, this.config.playsPerArm);
    while (this.cursor < schedule.length) {
      const play = schedule[this.cursor]!;
      const id = playId(this.env.id, play);
      const outcome = this.outcomes.get(id);
      if (this.hangCode) {
        const skipped = envError('env_hung', 'play', {
          expected: 'the environment to answer in time',
          seen: `an earlier play hung (${this.hangCode})`,
          fix: 'make every reset and step return quickly',
        });
        this.record(play, id, failedPlay('env_hung', skipped.message), play.arm === 'nohint', false);
      } else {
        if (outcome === undefined) return;
        if (outcome === 'not run') throw new Error(`play ${id} was skipped before any hang`);
        for (const r of outcome.records) this.record(play, r.id, r.played, r.dropped, r.retried);
        this.hangCode = outcome.hang;
      }
      this.cursor += 1;
    }
  }

  private record(play: PlannedPlay, id: string, played: PlayedEpisode, dropped: boolean, retried: boolean): void {
    const episode = clipEpisode({ id, envId: this.env.id, epoch: this.env.epoch, ...play, ...played, dropped, retried, advantage: 0 });
    this.episodes.push(episode);
    this.emit({ type: 'episode', epoch: this.env.epoch, episode });
  }
}

/** True when schedule key `a` comes after `b`. */
function later(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return a.length > b.length;
}

/**
 * Plays one valid environment's schedule (see EnvironmentPlays), up to the run's concurrency at
 * once: the unhinted plays and, when the environment has a hint, the hinted ones.
 */
export async function playEnvironment(
  env: EnvironmentRecord,
  model: ChatModel,
  sandbox: SandboxRuntime,
  config: Config,
  emit: (event: SpadeEvent) => void,
  gate: Gate,
  lessons: readonly string[] = [],
): Promise<Episode[]> {
  const plays = new EnvironmentPlays(env, model, sandbox, config, emit, lessons);
  const scheduler = new Scheduler(effectiveConcurrency(config.concurrency, model), gate, lookAheadOf(sandbox));
  plays.setHint(env.hint !== null);
  for (const unit of [...plays.units('nohint', []), ...(env.hint !== null ? plays.units('hint', []) : [])]) scheduler.add(unit);
  try {
    await scheduler.drain();
  } finally {
    await plays.close();
  }
  return plays.episodes;
}
