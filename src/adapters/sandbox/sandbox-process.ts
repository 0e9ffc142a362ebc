/** One running sandbox (a process or a worker) holding one interpreter that can answer harness calls and be killed. */
export interface SandboxProcess {
  /** Sends one JSON request; resolves with whatever came back (checked by the caller). One that `startsLate` calls `onStart` when the request starts running. */
  call(request: string, onStart?: () => void): Promise<unknown>;
  /** Whether a request may wait before it runs (an interpreter shared with other environments): a caller's time limit then starts at `onStart`. */
  readonly startsLate?: boolean;
  /** Kills it at once, whatever it is doing. */
  kill(): void;
  /** Resolves with a reason when it dies on its own. */
  readonly exited: Promise<string>;
}

/** Starts a fresh, fully loaded and sealed sandbox; once `signal` aborts, one still starting is killed at once and the start rejects. */
export type SpawnSandbox = (signal?: AbortSignal) => Promise<SandboxProcess>;
