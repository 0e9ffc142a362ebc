import type { Config } from '../config.ts';
import { isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { EnvHandle, SandboxRuntime } from '../ports/sandbox-port.ts';

/** Codes of a hang: the environment is then skipped for the rest of the epoch (SPADE's hung-game list). */
export const HANG_CODES: ReadonlySet<EnvErrorCode> = new Set(['load_timeout', 'reset_timeout', 'step_timeout']);

/**
 * The loaded modules of one environment, one per play running at the same time (each in its own
 * interpreter, up to the sandbox's parallelism; a further play waits for one to come free); every
 * play gets a fresh instance of the class: a module loaded for it, or an idle one renewed; after a
 * play the instance's own close() is called when it has one.
 */
export class FreshInstances {
  private readonly idle: EnvHandle[] = [];
  private readonly loaded = new Set<EnvHandle>();
  private loading = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly lanes: number;
  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly code: string,
    private readonly config: Config,
  ) {
    this.lanes = Math.max(1, Math.floor(sandbox.parallelism ?? Number.POSITIVE_INFINITY));
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
      const handle = await this.sandbox.load(this.code, { maxTurns: this.config.maxTurns, timeoutMs: this.config.stepTimeoutMs, stage: 'play', toolBaseAids: this.config.toolBaseAids });
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
      clean = outcome.error === null && (await this.closed(handle));
      return outcome;
    } finally {
      if (clean) this.release(handle);
      else await this.discard(handle).catch(() => undefined);
    }
  }

  // Calls the instance's own close() after a play, as the reference does; false when it failed (the play's result stands, the interpreter is retired).
  private async closed(handle: EnvHandle): Promise<boolean> {
    try {
      await handle.close?.({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
      return true;
    } catch {
      return false;
    }
  }

  /** Returns a handle whose play ended cleanly; the next play renews it. */
  release(handle: EnvHandle): void {
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

  /** Retires every handle of the environment. */
  async close(): Promise<void> {
    const all = [...this.loaded];
    this.loaded.clear();
    this.idle.length = 0;
    await Promise.all(all.map((handle) => handle.dispose()));
  }
}
