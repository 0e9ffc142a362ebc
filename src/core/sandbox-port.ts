import type { CheckSyntax } from './env/fstring-repair.ts';
import type { ResetResult, StepResult } from './env/contract.ts';
import type { ValidationStage } from './env/env-error.ts';

/** Options for loading one environment into a sandbox. */
export interface LoadOptions {
  /** Turn cap passed to the class as `max_turns` (or set on the instance). */
  maxTurns: number;
  /** Hard limit for running the module and constructing the class, in milliseconds. */
  timeoutMs: number;
  /** Stage named in errors (default `load`). */
  stage?: ValidationStage;
}

/** Options for one call on a loaded environment. */
export interface CallOptions {
  /** Hard limit for this call, in milliseconds; a hang is killed. */
  timeoutMs?: number;
  /** Stage named in errors (default `play`). */
  stage?: ValidationStage;
}

/** One environment loaded in a sandbox. All methods reject with EnvError on contract failures. */
export interface EnvHandle {
  /** Name of the environment class that was found. */
  readonly className: string;
  /** Whether the class defines `solution()`. */
  readonly hasSolution: boolean;
  /** Reseeds the sandbox's `random` with `seed` (when given) and calls `reset(seed=seed)`. */
  reset(seed: number | null, options?: CallOptions): Promise<ResetResult>;
  /** Calls `step(action)`. */
  step(action: string, options?: CallOptions): Promise<StepResult>;
  /** Builds a fresh instance of the environment class (the module stays loaded), so no state of an earlier play survives. */
  renew(options?: CallOptions): Promise<void>;
  /** Calls `solution()`; null when the class has none. */
  solution(options?: CallOptions): Promise<string | null>;
  /** Forgets the environment in the sandbox. */
  dispose(): Promise<void>;
}

/** A place where untrusted environment code runs: isolated, killable, size-limited. */
export interface SandboxRuntime {
  /** Starts the sandbox if needed and resolves once it can answer (start-up is not charged to any time limit). */
  warm(): Promise<void>;
  /** Asks Python whether `source` parses (used by the f-string repair). */
  checkSyntax: CheckSyntax;
  /** Runs the module, finds the `*Env` class and constructs it. */
  load(code: string, options: LoadOptions): Promise<EnvHandle>;
  /** Stops every process or worker the runtime owns. */
  close(): Promise<void>;
}
