import type { CheckSyntax } from '../env/fstring-repair.ts';
import type { ResetResult, StepResult } from '../env/contract.ts';
import type { ValidationStage } from '../env/env-error.ts';
import type { ToolFacts } from '../env/tool-use-facts.ts';

/** Options for loading one environment into a sandbox. */
export interface LoadOptions {
  /**
   * Turn cap. The class is built with its own defaults (`Cls()`, or `Cls(max_turns=cap)` only if
   * that raises TypeError); then a positive int `max_turns` on the instance is lowered to the cap,
   * and any other `max_turns` attribute is set to it.
   */
  maxTurns: number;
  /** Hard limit for running the module and constructing the class, in milliseconds. */
  timeoutMs: number;
  /** Stage named in errors (default `load`). */
  stage?: ValidationStage;
  /** Hand designs the tab's aided ToolUseBaseEnv (default) or, when false, the reference's own (docs/method.md section 6). */
  toolBaseAids?: boolean;
  /** Called when the code is handed to its interpreter: waiting for one (its boot, a queue) is over and the environment's own time starts. */
  onRunning?: () => void;
  /** An interpreter reserved for this load with `reserve` (used once; absent: the next one booted). */
  ticket?: InterpreterTicket;
}

/** A booted interpreter held for one later `load`, which no environment code has touched yet. */
export interface InterpreterTicket {
  /** Gives the interpreter back unused (a no-op once a load has used it). */
  release(): void;
}

/** Options for one call on a loaded environment. */
export interface CallOptions {
  /** Hard limit for this call, in milliseconds; a hang is killed. */
  timeoutMs?: number;
  /** Stage named in errors (default `play`). */
  stage?: ValidationStage;
  /** `reset` and `step`: convert the return as the reference's wrapper does before the contract reads it (`coerceStepReturns`, docs/method.md section 5). */
  coerce?: boolean;
}

/** One environment loaded in its own fresh interpreter, which it owns. All methods reject with EnvError on contract failures. */
export interface EnvHandle {
  /** Name of the environment class that was found. */
  readonly className: string;
  /** Whether the class defines `solution()`. */
  readonly hasSolution: boolean;
  /** Reseeds the sandbox's `random` with `seed` (when given) and calls `reset(seed=seed)`. */
  reset(seed: number | null, options?: CallOptions): Promise<ResetResult>;
  /** Calls `step(action)`. */
  step(action: string, options?: CallOptions): Promise<StepResult>;
  /** Runs the module afresh in a namespace of its own and builds an instance of its class (the interpreter stays), as the reference builds an environment per play. */
  renew(options?: CallOptions): Promise<void>;
  /** The tool-use facts of the current instance (tools, instructions, criteria on `_state`); null when its `get_tools()` lists no tools (a game). */
  toolFacts(options?: CallOptions): Promise<ToolFacts | null>;
  /** Calls `execute_tool(name, arguments)` outside `step` (the reference's tool-call path); its output as text: a str result, or a dict's `output`. */
  executeTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<string>;
  /** Calls the instance's own `close()` when it has one (the reference calls it when done with an environment); absent in runtimes without it. */
  close?(options?: CallOptions): Promise<void>;
  /** Calls `solution()`; null when the class has none. */
  solution(options?: CallOptions): Promise<string | null>;
  /** Retires the environment's interpreter: nothing of the environment is used again (the interpreter is killed, or restored exactly to its state before any environment ran). */
  dispose(): Promise<void>;
}

/** A place where untrusted environment code runs: isolated, killable, size-limited. */
export interface SandboxRuntime {
  /** Interpreters it keeps booted ahead (from the machine's cores and memory): how many plays are loaded ahead of their turn, at most as many as may run at once (absent: none ahead). */
  readonly parallelism?: number;
  /** Starts the sandbox if needed and resolves once it can answer (start-up is not charged to any time limit). */
  warm(): Promise<void>;
  /** Asks Python whether `source` parses (used by the f-string repair). */
  checkSyntax: CheckSyntax;
  /** Holds a booted interpreter for a later load (a play waiting for its turn); the environment's code runs only when that load comes. */
  reserve?(): Promise<InterpreterTicket>;
  /** Runs the module in a fresh interpreter of its own, finds the `*Env` class and constructs it. */
  load(code: string, options: LoadOptions): Promise<EnvHandle>;
  /** Stops every process or worker the runtime owns. */
  close(): Promise<void>;
}
