import type { Config } from '../config.ts';
import { isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { EnvHandle, InterpreterTicket, SandboxRuntime } from '../ports/sandbox-port.ts';
import type { WorkUnit } from './scheduler.ts';

/** Codes of a hang: the environment is then skipped for the rest of the epoch (SPADE's hung-game list). */
export const HANG_CODES: ReadonlySet<EnvErrorCode> = new Set(['load_timeout', 'reset_timeout', 'step_timeout']);

/**
 * The interpreters of one environment's plays. Every play runs the module afresh and builds its
 * own instance of the class (as the reference builds an environment per play). A play names a
 * lane: plays of one lane run one after another in one interpreter (its module run again for each
 * play), and a play in no lane (null) gets an interpreter of its own. Which plays share a lane is
 * the caller's choice (see `playsPerInterpreter`); after a play the instance's own close() is
 * called when it has one; an interpreter whose play failed is never used again.
 */
export class FreshInstances {
  private readonly kept = new Map<string, EnvHandle>();
  private readonly loaded = new Set<EnvHandle>();
  private readonly tickets: InterpreterTicket[] = [];
  private readonly tails = new Map<string, Promise<void>>();
  private closed = false;
  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly code: string,
    private readonly config: Config,
  ) {}

  /**
   * Reserves a booted interpreter for a play that has not started yet (the scheduler's
   * look-ahead), so the play does not wait for a boot when it starts. The environment's code runs
   * only when the play starts, in every arm alike, so the time it spent waiting tells it nothing.
   * Never rejects: a play without a reservation takes the next interpreter booted.
   */
  async reserve(): Promise<void> {
    const ticket = await this.sandbox.reserve?.().catch(() => undefined);
    if (!ticket) return;
    if (this.closed) ticket.release();
    else this.tickets.push(ticket);
  }

  /**
   * `unit` as the next play of `lane`: the lane's first play reserves a booted interpreter ahead of
   * its turn, each later one waits (`after`, holding no place) until the play before it has finished.
   */
  inLane(lane: string, unit: Omit<WorkUnit, 'prepare' | 'after'>): WorkUnit {
    const before = this.tails.get(lane);
    let done!: () => void;
    this.tails.set(lane, new Promise<void>((resolve) => (done = resolve)));
    const run = () => unit.run().finally(done);
    return before ? { ...unit, after: before, run } : { ...unit, prepare: () => this.reserve(), run };
  }

  /**
   * Runs one play on a fresh module and instance, in `lane`'s interpreter (null: one of its own).
   * The interpreter is kept for the lane's next play after a clean play, and killed after an
   * error, a crash the play kept, or when the play throws, so nothing is left holding it.
   */
  async play<T extends { error: unknown; crash?: unknown }>(lane: string | null, run: (handle: EnvHandle) => Promise<T>): Promise<T> {
    const handle = await this.take(lane);
    let clean = false;
    try {
      const outcome = await run(handle);
      clean = outcome.error === null && outcome.crash === undefined && (await this.closedCleanly(handle));
      return outcome;
    } finally {
      if (clean && lane !== null && !this.closed) this.kept.set(lane, handle);
      else await this.discard(handle).catch(() => undefined);
    }
  }

  // Calls the instance's own close() after a play, as the reference does; false when it failed (the play's result stands, the interpreter is retired).
  private async closedCleanly(handle: EnvHandle): Promise<boolean> {
    try {
      await handle.close?.({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
      return true;
    } catch {
      return false;
    }
  }

  // The lane's interpreter with its module run afresh, or a newly loaded one.
  private async take(lane: string | null): Promise<EnvHandle> {
    const kept = lane === null ? undefined : this.kept.get(lane);
    if (kept) {
      this.kept.delete(lane!);
      try {
        await kept.renew({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
        return kept;
      } catch (error) {
        await this.discard(kept);
        if (!isEnvError(error) || HANG_CODES.has(error.code)) throw error;
      }
    }
    const handle = await this.sandbox.load(this.code, {
      maxTurns: this.config.maxTurns,
      timeoutMs: this.config.stepTimeoutMs,
      stage: 'play',
      toolBaseAids: this.config.toolBaseAids,
      ticket: this.tickets.shift(),
    });
    if (this.closed) {
      await handle.dispose();
      throw new Error('the environment was closed while a play loaded it');
    }
    this.loaded.add(handle);
    return handle;
  }

  /** Retires one handle (its interpreter is killed). */
  private async discard(handle: EnvHandle): Promise<void> {
    this.loaded.delete(handle);
    await handle.dispose();
  }

  /** Retires every interpreter of the environment, and gives back the ones reserved for plays that never ran. */
  async close(): Promise<void> {
    this.closed = true;
    for (const ticket of this.tickets.splice(0)) ticket.release();
    const all = [...this.loaded];
    this.loaded.clear();
    this.kept.clear();
    await Promise.all(all.map((handle) => handle.dispose()));
  }
}

/**
 * How many plays share an interpreter: the largest number that divides both the unhinted plays
 * per rollout (K) and the hinted plays (H). Plays are put in lanes of that many by their index,
 * per rollout and arm, so every lane of either arm holds the same number of plays: a lane holds
 * one arm only, and the hinted lane of seeds i..j sees the very seeds and count that the unhinted
 * lane of i..j sees. What an environment keeps in its interpreter can therefore never tell it its
 * arm, nor reach a play of the same seed in the other arm (docs/method.md, step 5).
 */
export function playsPerInterpreter(config: Pick<Config, 'playsPerArm' | 'hintPlays'>): number {
  let [a, b] = [Math.max(1, config.playsPerArm), Math.max(1, config.hintPlays)];
  while (b > 0) [a, b] = [b, a % b];
  return a;
}
