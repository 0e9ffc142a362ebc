import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { envError, isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { SpadeEvent } from './events.ts';
import { playEpisode, type PlayedEpisode } from './play-episode.ts';
import { agentSettings } from './agent-settings.ts';
import type { Arm, EnvironmentRecord, Episode } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import { FreshInstances, HANG_CODES } from './fresh-instances.ts';
import { clipEpisode } from './stored-episode.ts';
import { playId, playSchedule, scheduleKey, type PlannedPlay } from './play-schedule.ts';
import type { Scheduler } from './scheduler.ts';
import { before } from './work-unit.ts';

export { playSchedule, type PlannedPlay } from './play-schedule.ts';

function failedPlay(code: EnvErrorCode, message: string): PlayedEpisode {
  return {
    firstObservation: '',
    messages: [],
    turns: [],
    return: 0,
    error: { code, message },
    usage: { promptTokens: 0, completionTokens: 0 },
  };
}

/** What one play produced: its episodes (a retried first attempt, then the play), or that it was not run after an earlier hang. */
type PlayOutcome =
  | {
      records: Array<{ id: string; played: PlayedEpisode; dropped: boolean; retried: boolean }>;
      hang: EnvErrorCode | null;
    }
  | 'not run';

/**
 * The plays of one valid environment, each a unit of work on a scheduler, with SPADE's failure
 * rules (docs/method.md section 1, steps 5 and 6): a fresh module and instance per play, in
 * interpreters that never serve both arms; an unhinted play that fails is retried once and then
 * dropped; a hinted play that fails scores 0; a hang skips the environment's remaining plays
 * (unhinted dropped, hinted scored 0). Plays may run at the same time, so the hang rule is applied
 * in schedule order: every play after the first hang in the schedule is recorded as skipped, even
 * if it ran (and one not started yet is not run). Episodes are emitted and kept in schedule order,
 * as each becomes final.
 */
export class EnvironmentPlays {
  private readonly instances: FreshInstances;
  private readonly outcomes = new Map<string, PlayOutcome>();
  private schedule: PlannedPlay[] | null = null;
  private hint: string | null = null;
  private readonly arms: Array<Promise<void>> = [];
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
   * Plays one arm (`order` prefixes each play's sort key on `scheduler`): queues its plays now and
   * resolves once every one is final (rejects with the first failure once all have settled). The
   * unhinted arm can start before the hint. Each play reserves an interpreter of its own ahead of
   * its turn.
   */
  playArm(arm: Arm, scheduler: Scheduler, order: readonly number[]): Promise<void> {
    const plays = playSchedule(this.config, this.env.id, arm === 'hint').filter((p) => p.arm === arm);
    this.pending += plays.length;
    const turns = plays.map((play) =>
      scheduler.turn(
        this.instances.reserving({
          stage: 'play',
          order: [...order, ...scheduleKey(play)],
          run: () => this.runPlay(play),
        }),
      ),
    );
    const played = Promise.allSettled(turns).then((outcomes) => {
      for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
    });
    this.arms.push(played.catch(() => undefined));
    return played;
  }

  /** Fixes the schedule once the hint is known (no hint, no hint arm); emits what is final. */
  setHint(hint: string | null): void {
    this.hint = hint;
    this.schedule = playSchedule(this.config, this.env.id, hint !== null);
    this.flush();
    void this.closeWhenDone().catch(() => undefined);
  }

  /** True once every play is final. */
  get done(): boolean {
    return this.schedule !== null && this.cursor === this.schedule.length;
  }

  /** Retires the environment's interpreters once none of its plays is running. */
  async close(): Promise<void> {
    await Promise.all(this.arms);
    await this.instances.close();
  }

  private async runPlay(play: PlannedPlay): Promise<void> {
    const id = playId(this.env.id, play);
    const key = scheduleKey(play);
    if (this.firstHang && before(this.firstHang, key)) {
      this.outcomes.set(id, 'not run');
    } else {
      const outcome = await this.play(play, id);
      if (outcome.hang && (!this.firstHang || before(key, this.firstHang))) this.firstHang = key;
      this.outcomes.set(id, outcome);
    }
    this.pending -= 1;
    this.flush();
    await this.closeWhenDone();
  }

  // Frees the environment's interpreters as soon as no play of it can still run.
  private async closeWhenDone(): Promise<void> {
    if (this.pending === 0 && this.done) await this.instances.close();
  }

  private async play(play: PlannedPlay, id: string): Promise<Exclude<PlayOutcome, 'not run'>> {
    const records: Exclude<PlayOutcome, 'not run'>['records'] = [];
    let played = await this.attempt(play, `${this.config.seed}:${id}`);
    if (played.error && !HANG_CODES.has(played.error.code) && play.arm === 'nohint') {
      records.push({ id: `${id}-failed`, played, dropped: true, retried: true });
      played = await this.attempt(play, `${this.config.seed}:${id}:retry`);
    }
    const hang = played.error && HANG_CODES.has(played.error.code) ? played.error.code : null;
    if (played.error && play.arm === 'hint') played = { ...played, return: 0 };
    records.push({ id, played, dropped: played.error !== null && play.arm === 'nohint', retried: false });
    return { records, hang };
  }

  private async attempt(play: PlannedPlay, seedKey: string): Promise<PlayedEpisode> {
    const { env, config } = this;
    try {
      return await this.instances.play((handle) =>
        playEpisode(this.model, handle, {
          seed: play.seed,
          hint: play.arm === 'hint' ? this.hint : null,
          lessons: this.lessons,
          ...agentSettings(config, this.model),
          modelSeedKey: seedKey,
          onToken: (delta) =>
            this.emit({
              type: 'token',
              epoch: env.epoch,
              source: {
                purpose: 'agent',
                slot: env.slot,
                envId: env.id,
                arm: play.arm,
                playIndex: play.index,
                rollout: play.rollout,
              },
              delta,
            }),
          onTurn: (turnIndex, turn) =>
            this.emit({
              type: 'turn',
              epoch: env.epoch,
              envId: env.id,
              arm: play.arm,
              playIndex: play.index,
              rollout: play.rollout,
              turnIndex,
              turn,
            }),
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
    const episode = clipEpisode({
      id,
      envId: this.env.id,
      epoch: this.env.epoch,
      ...play,
      ...played,
      dropped,
      retried,
      advantage: 0,
    });
    this.episodes.push(episode);
    this.emit({ type: 'episode', epoch: this.env.epoch, episode });
  }
}
