import type { Config } from '../config.ts';
import type { EnvErrorCode } from '../env/env-error.ts';
import type { EnvHandle, InterpreterTicket, SandboxRuntime } from '../ports/sandbox-port.ts';
import type { WorkUnit } from './scheduler.ts';

/** Codes of a hang: the environment is then skipped for the rest of the epoch (SPADE's hung-game list). */
export const HANG_CODES: ReadonlySet<EnvErrorCode> = new Set(['load_timeout', 'reset_timeout', 'step_timeout']);

/**
 * The interpreters of one environment's plays. Every play loads the module into an interpreter of
 * its own, as sealed (freshly booted, or restored to its sealed state after an earlier
 * environment), and builds its own instance of the class, as the reference builds an environment
 * per play; after a clean play the instance's own close() is called when it has one, and the
 * interpreter is retired. Nothing a play leaves behind reaches another play, so no play can tell
 * its arm or the seeds played before it (docs/method.md section 1, step 5).
 */
export class FreshInstances {
  private readonly loaded = new Set<EnvHandle>();
  private readonly tickets: InterpreterTicket[] = [];
  private closed = false;
  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly code: string,
    private readonly config: Config,
  ) {}

  /**
   * `unit` as a play that reserves a booted interpreter ahead of its turn (the scheduler's
   * look-ahead), so it does not wait for a boot when it starts. The environment's code runs only
   * when the play starts, in every arm alike, so the time it spent waiting tells it nothing.
   */
  reserving(unit: Omit<WorkUnit, 'prepare'>): WorkUnit {
    return { ...unit, prepare: () => this.reserve() };
  }

  /** Runs one play in an interpreter of its own, retired after the play whatever happened. */
  async play<T extends { error: unknown; crash?: unknown }>(run: (handle: EnvHandle) => Promise<T>): Promise<T> {
    const handle = await this.load();
    try {
      const outcome = await run(handle);
      if (outcome.error === null && outcome.crash === undefined) await this.closeInstance(handle);
      return outcome;
    } finally {
      this.loaded.delete(handle);
      await handle.dispose().catch(() => undefined);
    }
  }

  /** Retires every interpreter of the environment, and gives back the ones reserved for plays that never ran. */
  async close(): Promise<void> {
    this.closed = true;
    for (const ticket of this.tickets.splice(0)) ticket.release();
    const all = [...this.loaded];
    this.loaded.clear();
    await Promise.all(all.map((handle) => handle.dispose()));
  }

  // Never rejects: a play without a reservation takes the next interpreter booted.
  private async reserve(): Promise<void> {
    const ticket = await this.sandbox.reserve?.().catch(() => undefined);
    if (!ticket) return;
    if (this.closed) ticket.release();
    else this.tickets.push(ticket);
  }

  private async load(): Promise<EnvHandle> {
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

  // Calls the instance's own close() after a play, as the reference does; a failure there leaves the play's result as it is.
  private async closeInstance(handle: EnvHandle): Promise<void> {
    await handle.close?.({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' }).catch(() => undefined);
  }
}
