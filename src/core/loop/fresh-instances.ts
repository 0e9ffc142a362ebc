import type { Config } from '../config.ts';
import { isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { EnvHandle, InterpreterTicket, SandboxRuntime } from '../ports/sandbox-port.ts';

/** Codes of a hang: the environment is then skipped for the rest of the epoch (SPADE's hung-game list). */
export const HANG_CODES: ReadonlySet<EnvErrorCode> = new Set(['load_timeout', 'reset_timeout', 'step_timeout']);

/**
 * How plays share interpreters. `perPlay`: every play gets an interpreter of its own, loaded for
 * it and killed after it, so nothing an environment keeps (module state, a rewritten harness)
 * reaches another play: no play can tell which arm it serves, and a play's result never depends
 * on which plays ran before it (docs/method.md, "Plays"). `reuse`: a play's module is renewed for
 * the next play of the environment, up to the sandbox's parallelism at once (held-out evaluation,
 * one arm, where a start per play would cost more than the play).
 */
export type InstanceSharing = 'perPlay' | 'reuse';

/**
 * The loaded modules of one environment's plays: every play gets a fresh instance of the class,
 * from a module loaded for it when it starts (in an interpreter reserved ahead with `reserve`,
 * or the next one booted) or, when sharing is `reuse`, from an idle module renewed.
 */
export class FreshInstances {
  private readonly idle: EnvHandle[] = [];
  private readonly loaded = new Set<EnvHandle>();
  private readonly tickets: InterpreterTicket[] = [];
  private loading = 0;
  private closed = false;
  private readonly waiting: Array<() => void> = [];
  private readonly lanes: number;
  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly code: string,
    private readonly config: Config,
    private readonly sharing: InstanceSharing = 'perPlay',
  ) {
    this.lanes = sharing === 'reuse' ? Math.max(1, Math.floor(sandbox.parallelism ?? Number.POSITIVE_INFINITY)) : Number.POSITIVE_INFINITY;
  }

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

  /** A handle holding a fresh instance, for one play; give it back with `release`, or `discard` it after a failure. */
  async take(): Promise<EnvHandle> {
    while (this.idle.length === 0 && this.loaded.size + this.loading >= this.lanes) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const reused = this.idle.pop();
    if (reused) {
      try {
        await reused.renew({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
        return reused;
      } catch (error) {
        await this.discard(reused);
        if (!isEnvError(error) || HANG_CODES.has(error.code)) throw error;
      }
    }
    this.loading += 1;
    try {
      const handle = await this.sandbox.load(this.code, { maxTurns: this.config.maxTurns, timeoutMs: this.config.stepTimeoutMs, stage: 'play', ticket: this.tickets.shift() });
      this.loaded.add(handle);
      return handle;
    } finally {
      this.loading -= 1;
      this.wakeOne();
    }
  }

  /**
   * Runs one play on a fresh instance and always gives its lane back, whatever happens: the
   * handle is released after a clean play and discarded (its interpreter killed) after an error
   * or when the play throws, so no play can leave a lane held for the environment's other plays.
   */
  async play<T extends { error: unknown }>(run: (handle: EnvHandle) => Promise<T>): Promise<T> {
    const handle = await this.take();
    let clean = false;
    try {
      const outcome = await run(handle);
      clean = outcome.error === null;
      return outcome;
    } finally {
      if (clean) await this.release(handle);
      else await this.discard(handle).catch(() => undefined);
    }
  }

  /** Returns a handle whose play ended cleanly: kept for the next play when sharing is `reuse`, else retired. */
  async release(handle: EnvHandle): Promise<void> {
    if (this.sharing === 'perPlay') return this.discard(handle);
    if (this.loaded.has(handle)) this.idle.push(handle);
    this.wakeOne();
  }

  private wakeOne(): void {
    this.waiting.shift()?.();
  }

  /** Retires one handle (its interpreter is killed). */
  async discard(handle: EnvHandle): Promise<void> {
    this.loaded.delete(handle);
    const at = this.idle.indexOf(handle);
    if (at >= 0) this.idle.splice(at, 1);
    this.wakeOne();
    await handle.dispose();
  }

  /** Retires every handle of the environment, and gives back the interpreters reserved for plays that never ran. */
  async close(): Promise<void> {
    this.closed = true;
    for (const ticket of this.tickets.splice(0)) ticket.release();
    const all = [...this.loaded];
    this.loaded.clear();
    this.idle.length = 0;
    await Promise.all(all.map((handle) => handle.dispose()));
  }
}
