import { isEnvError } from '../../core/env/env-error.ts';
import { parseAction, withHint } from '../../core/prompts/agent-prompt.ts';
import { parseToolReply, toolReplyAction } from '../../core/prompts/tool-call-parse.ts';
import { instructionsOf, progressOf } from '../../core/loop/play-tool-episode.ts';
import type { Episode, ToolProgress } from '../../core/records.ts';
import type { EnvHandle, SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import { episodeReturn } from '../../core/scoring/episode-return.ts';
import { RESET_CRASH_CODES, STEP_CRASH_CODES } from '../../core/loop/step-crash.ts';
import { errorMessage } from '../../core/error-message.ts';

/** What a human play needs: the code, the seed, the hint (or null) and the run's limits. */
export interface PlayOptions {
  code: string;
  seed: number;
  /** Appended to the first observation exactly as the agent gets it; null plays without. */
  hint: string | null;
  /** Turn cap (the run's maxTurns, as for the agent). */
  maxTurns: number;
  /** Limit of one load, reset or step, in milliseconds (the run's stepTimeoutMs). */
  stepTimeoutMs: number;
  /** Read typed replies with the run's reply aids, as the agent's are (absent: the reference's rules). */
  replyAids?: boolean;
  /** Give the code the run's tool-use base class (absent: the tab's aided one). */
  toolBaseAids?: boolean;
}

/** One turn you played. */
export interface PlayTurn {
  /** What you typed. */
  input: string;
  /** What was sent: your text parsed like an agent reply, with the run's reply aids or without (a game's box re-wrapped; a tool-use task's answer or call; else the text). */
  action: string;
  observation: string;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  /** A multi-turn tool-use task's progress after the step. */
  progress?: ToolProgress;
}

/** What a tool-use environment offers a human player: its tools (`get_tools()`) and a multi-turn task's instructions. */
export interface ToolPlay {
  tools: unknown;
  /** The instructions, revealed one by one (empty for a single task). */
  instructions: string[];
}

/** Where a human play stands. */
export type PlayStatus = 'playing' | 'finished' | 'failed';

/** A snapshot of a play for the view. */
export interface PlayView {
  firstObservation: string;
  turns: PlayTurn[];
  status: PlayStatus;
  /** SPADE's episode return once finished (-1 when the environment failed), else null. */
  result: number | null;
  error: string | null;
  /** Set for a tool-use environment. */
  tool: ToolPlay | null;
}

/** Wraps text in \boxed{...} (text already boxed is left alone; surrounding blanks are trimmed). */
export function wrapBoxed(text: string): string {
  const trimmed = text.trim();
  return /^\\boxed\{[\s\S]*\}$/.test(trimmed) ? trimmed : `\\boxed{${trimmed}}`;
}

const AGENT_FAILURE =
  "An agent's play ends here the same way and, as in SPADE, scores nothing: an unhinted play is retried once and then dropped, a hinted one counts 0.";
const AGENT_CRASH =
  "An agent's play ends here too. By the tab's rule it scores nothing (an unhinted play is retried once and then dropped, a hinted one counts 0); by the reference's (crashes count as losses), an error inside reset plays on and one inside step ends the play with a return of -1.";

/** A plain-language message for an environment failure during a human play. */
export function describePlayFailure(error: unknown, stepTimeoutMs: number): string {
  if (!isEnvError(error)) return `The sandbox failed: ${errorMessage(error)}. Start a new play.`;
  if (error.code.endsWith('_timeout')) {
    return `The environment did not answer within ${stepTimeoutMs} ms (${error.code}), so the sandbox stopped it. ${AGENT_FAILURE}`;
  }
  return `The environment failed (${error.stage}/${error.code}): ${error.message} ${STEP_CRASH_CODES.has(error.code) || RESET_CRASH_CODES.has(error.code) ? AGENT_CRASH : AGENT_FAILURE}`;
}

/**
 * One human play of an environment in the sandbox: reset with the seed (hint appended once to
 * the first observation, as for the agent), then one step per typed action (read as an agent's
 * reply is: boxed for a game, answer or first tool call for tool use) until the episode
 * terminates, truncates or reaches the turn cap. An environment error or timeout ends the play
 * with return -1, as it ends an agent's.
 */
export class PlaySession {
  private turns: PlayTurn[] = [];
  private status: PlayStatus = 'playing';
  private error: string | null = null;

  private constructor(
    private handle: EnvHandle | null,
    private readonly options: PlayOptions,
    private readonly firstObservation: string,
    private readonly tool: ToolPlay | null,
  ) {}

  /** Loads the environment and resets it; a failure gives a finished session with the error. */
  static async start(sandbox: SandboxRuntime, options: PlayOptions): Promise<PlaySession> {
    let handle: EnvHandle | null = null;
    try {
      await sandbox.warm();
      handle = await sandbox.load(options.code, {
        maxTurns: options.maxTurns,
        timeoutMs: options.stepTimeoutMs,
        stage: 'play',
        ...(options.toolBaseAids === false ? { toolBaseAids: false } : {}),
      });
      const reset = await handle.reset(options.seed, { timeoutMs: options.stepTimeoutMs });
      const facts = await handle.toolFacts({ timeoutMs: options.stepTimeoutMs });
      const tool = facts ? { tools: facts.tools, instructions: instructionsOf(facts) ?? [] } : null;
      return new PlaySession(
        handle,
        options,
        options.hint ? withHint(reset.observation, options.hint) : reset.observation,
        tool,
      );
    } catch (error) {
      await handle?.dispose().catch(() => undefined);
      const failed = new PlaySession(null, options, '', null);
      failed.fail(error);
      return failed;
    }
  }

  /** The play as the view shows it. */
  view(): PlayView {
    const finished = this.status === 'finished';
    return {
      firstObservation: this.firstObservation,
      turns: [...this.turns],
      status: this.status,
      result: finished ? episodeReturn(this.turns) : null,
      error: this.error,
      tool: this.tool,
    };
  }

  /** Sends one typed action; ignored once the play is over. */
  async act(input: string): Promise<PlayView> {
    if (this.status !== 'playing' || !this.handle) return this.view();
    const aids = this.options.replyAids ?? false;
    const action = this.tool ? toolReplyAction(parseToolReply(input, aids)) : parseAction(input, aids);
    try {
      const step = await this.handle.step(action, { timeoutMs: this.options.stepTimeoutMs });
      const progress =
        this.tool && this.tool.instructions.length > 0
          ? progressOf(await this.handle.toolFacts({ timeoutMs: this.options.stepTimeoutMs }))
          : null;
      this.turns.push({
        input,
        action,
        observation: step.observation,
        reward: step.reward,
        terminated: step.terminated,
        truncated: step.truncated,
        ...(progress ? { progress } : {}),
      });
      if (step.terminated || step.truncated || this.turns.length >= this.options.maxTurns)
        await this.finish('finished');
    } catch (error) {
      this.fail(error);
      await this.release();
    }
    return this.view();
  }

  /** Frees the environment in the sandbox; no further actions are taken. */
  async dispose(): Promise<void> {
    await this.release();
  }

  private fail(error: unknown): void {
    this.status = 'failed';
    this.error = describePlayFailure(error, this.options.stepTimeoutMs);
  }

  private async finish(status: PlayStatus): Promise<void> {
    this.status = status;
    await this.release();
  }

  private async release(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.dispose().catch(() => undefined);
  }
}

/** The agent's returns for one seed, per arm (rollout 0's plays of that seed). */
export function agentReturnsForSeed(episodes: readonly Episode[], seed: number): { nohint: number[]; hint: number[] } {
  const own = episodes.filter((e) => e.rollout === 0 && e.seed === seed);
  return {
    nohint: own.filter((e) => e.arm === 'nohint').map((e) => e.return),
    hint: own.filter((e) => e.arm === 'hint').map((e) => e.return),
  };
}
