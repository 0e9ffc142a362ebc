import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { envError, isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { EpochStage, SpadeEvent } from './events.ts';
import { playEpisode, type PlayedEpisode } from './play-episode.ts';
import { deriveSeed } from './random.ts';
import type { Arm, EnvironmentRecord, Episode } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import { FreshInstances, HANG_CODES } from './fresh-instances.ts';

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

function failedPlay(code: EnvErrorCode, message: string): PlayedEpisode {
  return { firstObservation: '', messages: [], turns: [], return: 0, error: { code, message }, usage: { promptTokens: 0, completionTokens: 0 } };
}

/**
 * Plays one valid environment's schedule with SPADE's failure rules: a fresh instance per play; an
 * unhinted play that fails is retried once and then dropped; a hinted play that fails scores 0; a
 * hang (timeout) skips the environment's remaining plays (unhinted dropped, hinted scored 0).
 */
export async function playEnvironment(
  env: EnvironmentRecord,
  model: ChatModel,
  sandbox: SandboxRuntime,
  config: Config,
  emit: (event: SpadeEvent) => void,
  gate: (stage: EpochStage) => Promise<void>,
  lessons: readonly string[] = [],
): Promise<Episode[]> {
  const episodes: Episode[] = [];
  const instances = new FreshInstances(sandbox, env.code, config);
  let hang: string | null = null;
  const record = (play: PlannedPlay, id: string, played: PlayedEpisode, dropped: boolean, retried = false) => {
    const episode: Episode = { id, envId: env.id, epoch: env.epoch, ...play, ...played, dropped, retried, advantage: 0 };
    episodes.push(episode);
    emit({ type: 'episode', epoch: env.epoch, episode });
  };
  const attempt = async (play: PlannedPlay, seedKey: string): Promise<PlayedEpisode> => {
    try {
      const handle = await instances.take();
      const played = await playEpisode(model, handle, {
        seed: play.seed,
        hint: play.arm === 'hint' ? env.hint : null,
        lessons,
        maxTurns: config.maxTurns,
        stepTimeoutMs: config.stepTimeoutMs,
        sampling: config.agent,
        template: config.prompts.agent,
        toolTemplate: config.prompts.toolAgent,
        modelSeedKey: seedKey,
        onToken: (delta) => emit({ type: 'token', epoch: env.epoch, source: { purpose: 'agent', slot: env.slot, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout }, delta }),
        onTurn: (turnIndex, turn) => emit({ type: 'turn', epoch: env.epoch, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout, turnIndex, turn }),
      });
      if (played.error) await instances.discard();
      return played;
    } catch (error) {
      if (!isEnvError(error)) throw error;
      await instances.discard();
      return failedPlay(error.code, error.message);
    }
  };
  try {
    for (const play of playSchedule(config, env.id, env.hint !== null)) {
      await gate('play');
      const id = playId(env.id, play);
      if (hang) {
        const skipped = envError('env_hung', 'play', { expected: 'the environment to answer in time', seen: `an earlier play hung (${hang})`, fix: 'make every reset and step return quickly' });
        record(play, id, failedPlay('env_hung', skipped.message), play.arm === 'nohint');
        continue;
      }
      let played = await attempt(play, `${config.seed}:${id}`);
      if (played.error && !HANG_CODES.has(played.error.code) && play.arm === 'nohint') {
        record(play, `${id}-failed`, played, true, true);
        played = await attempt(play, `${config.seed}:${id}:retry`);
      }
      if (played.error && HANG_CODES.has(played.error.code)) hang = played.error.code;
      if (played.error && play.arm === 'hint') played = { ...played, return: 0 };
      record(play, id, played, played.error !== null && play.arm === 'nohint');
    }
  } finally {
    await instances.discard();
  }
  return episodes;
}
