import type { Config } from '../config.ts';
import { isEnvError, type EnvErrorCode } from '../env/env-error.ts';
import type { EnvHandle, SandboxRuntime } from '../ports/sandbox-port.ts';

/** Codes of a hang: the environment is then skipped for the rest of the epoch (SPADE's hung-game list). */
export const HANG_CODES: ReadonlySet<EnvErrorCode> = new Set(['load_timeout', 'reset_timeout', 'step_timeout']);

/** Keeps at most one loaded module per environment; every play gets a fresh instance of its class. */
export class FreshInstances {
  private handle: EnvHandle | null = null;
  private used = false;
  constructor(
    private readonly sandbox: SandboxRuntime,
    private readonly code: string,
    private readonly config: Config,
  ) {}

  async take(): Promise<EnvHandle> {
    if (this.handle && this.used) {
      try {
        await this.handle.renew({ timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
      } catch (error) {
        await this.discard();
        if (!isEnvError(error) || HANG_CODES.has(error.code)) throw error;
      }
    }
    this.handle ??= await this.sandbox.load(this.code, { maxTurns: this.config.maxTurns, timeoutMs: this.config.stepTimeoutMs, stage: 'play' });
    this.used = true;
    return this.handle;
  }

  async discard(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    this.used = false;
    await handle?.dispose();
  }
}
