import type {
  CallOptions,
  EnvHandle,
  InterpreterTicket,
  LoadOptions,
  SandboxRuntime,
} from '../../core/ports/sandbox-port.ts';
import type { SyntaxCheck } from '../../core/env/fstring-repair.ts';
import { EnvError, isEnvError, type ValidationStage } from '../../core/env/env-error.ts';
import { asLoadReply, asSyntaxReply, asValueReply } from '../../core/env/harness-protocol.ts';
import {
  checkResetValue,
  checkSolutionValue,
  checkStepValue,
  checkToolResultValue,
  failureToEnvError,
  type EnvCall,
} from '../../core/env/contract.ts';
import { checkToolFactsValue } from '../../core/env/tool-use-facts.ts';
import { DEFAULT_MAX_OUTPUT_CHARS } from '../../core/env/sandbox-limits.ts';
import { Interpreter, protocolError } from './interpreter.ts';
import { InterpreterPool } from './interpreter-pool.ts';
import { SharingPool, type SandboxPool } from './sharing-pool.ts';
import type { SandboxProcess, SpawnSandbox } from './sandbox-process.ts';
import { errorMessage } from '../../core/error-message.ts';

export type { SandboxProcess, SpawnSandbox } from './sandbox-process.ts';

/** Settings of a Pyodide sandbox runtime. */
export interface PyodideRuntimeOptions {
  /** Longest string (observation, info, solution) accepted from an environment, in characters. */
  maxObservationChars: number;
  /** Interpreters kept booted and waiting for the next environment (at least 1; the adapters use the core count and two more, see pool-size.ts). */
  spares: number;
  /** Interpreters booted side by side at most (the adapters use the core count less one, at least 1). */
  bootsAtOnce: number;
  /** Interpreters kept waiting at most, booted or restored after an environment (default: `spares`; the adapters take it from memory). */
  kept?: number;
  /** Spares kept booted until the first environment loads (default: `spares`; the adapters keep 1, so an idle page or command holds one besides the syntax checker's). */
  idleSpares?: number;
  /** Default per-call limit when a call names none, in milliseconds. */
  defaultCallTimeoutMs: number;
  /** Plays loaded ahead of their turn, and imports' validations at once (default: `spares`, which the adapters take from cores and memory). */
  parallelism?: number;
  /** Environments one interpreter may hold at once, all but one parked (default 1: each has an interpreter of its own; see sharing-pool.ts). */
  sharedBy?: number;
}

/** Defaults: 100 000-character outputs, one warm spare booted one at a time, 2 s per call. */
export const DEFAULT_RUNTIME_OPTIONS: PyodideRuntimeOptions = {
  maxObservationChars: DEFAULT_MAX_OUTPUT_CHARS,
  spares: 1,
  bootsAtOnce: 1,
  defaultCallTimeoutMs: 2000,
};

// A restore writes back about 30 MB and draws entropy: milliseconds; a sandbox that takes longer is killed.
const RECYCLE_TIMEOUT_MS = 2000;

// A reserved interpreter: `use` hands it to one load (then null), `release` back to the pool.
type Ticket = InterpreterTicket & { use(): SandboxProcess | null };

const NAMES: Record<Exclude<EnvCall, 'load'>, readonly string[]> = {
  reset: ['observation', 'info'],
  step: ['observation', 'reward', 'terminated', 'truncated', 'info'],
  solution: ['solution'],
  inspect: ['tool facts'],
  tool: ['tool result'],
  close: ['close'],
};

/**
 * Host side of the Pyodide sandboxes: every environment gets an interpreter of its own, as
 * sealed, from a pool of booted spares, or with `sharedBy` above 1 a share of one while no spare
 * waits (see sharing-pool.ts; start-up is never charged to a time limit), hangs are
 * killed, replies are decoded and checked here, and a disposed environment's interpreter is
 * restored byte for byte to its sealed state for the next one (see memory-image.ts), or killed
 * when that cannot be done exactly.
 */
export class PyodideSandboxRuntime implements SandboxRuntime {
  private readonly pool: SandboxPool;
  private readonly live = new Set<Interpreter>();
  private readonly tickets = new WeakSet<Ticket>();
  private readonly held = new Set<SandboxProcess>();
  private syntax: Promise<Interpreter> | null = null;
  private killed = 0;
  private restored = 0;
  private waited = 0;
  private closed = false;
  private readonly options: PyodideRuntimeOptions;
  readonly parallelism: number;

  constructor(spawn: SpawnSandbox, options: Partial<PyodideRuntimeOptions> = {}) {
    this.options = { ...DEFAULT_RUNTIME_OPTIONS, ...options };
    const spares = Math.max(1, Math.floor(this.options.spares));
    const kept = Math.max(spares, Math.floor(this.options.kept ?? spares));
    const sharedBy = Math.floor(this.options.sharedBy ?? 1);
    // Shared, one spare is enough: a hang's neighbours move to the other interpreters in use.
    const pool = new InterpreterPool(
      spawn,
      sharedBy > 1 ? 1 : spares,
      Math.max(1, Math.floor(this.options.bootsAtOnce)),
      Math.floor(this.options.idleSpares ?? spares),
      kept,
    );
    this.pool = sharedBy > 1 ? new SharingPool(pool, sharedBy, spares) : pool;
    this.parallelism = Math.max(1, Math.floor(this.options.parallelism ?? spares));
  }

  /** Number of interpreters killed after a hang, a crash or a malformed reply. */
  get restarts(): number {
    return this.killed;
  }

  /** Number of interpreters restored to their sealed state after an environment and handed to the next one instead of a fresh boot. */
  get recycled(): number {
    return this.restored;
  }

  /** Number of interpreters booted so far (spares and replacements). */
  get boots(): number {
    return this.pool.boots;
  }

  /** Milliseconds that loads, reservations and the syntax checker have waited for an interpreter in all (none was booted or restored yet). */
  get interpreterWaitMs(): number {
    return this.waited;
  }

  /** Starts booting the spares now, without waiting (a command or a page that will need Python soon); a failed boot is reported to the next load. */
  start(): void {
    this.pool.whenReady(1).catch(() => undefined);
  }

  /** Resolves once a syntax check and a load can start at once (an interpreter for each is booted). */
  async warm(): Promise<void> {
    await this.syntaxInterpreter();
    await this.pool.whenReady(1);
  }

  /** Resolves once every spare is booted; benchmarks use it to time loads on a warm pool. */
  async whenSpareReady(): Promise<void> {
    await this.pool.whenReady();
  }

  readonly checkSyntax = async (source: string, mode: 'exec' | 'eval'): Promise<SyntaxCheck> => {
    const interpreter = await this.syntaxInterpreter();
    const raw = await interpreter.request(
      { op: 'syntax', source, mode },
      'load',
      'load',
      this.options.defaultCallTimeoutMs * 5,
    );
    const reply = decoded(interpreter, 'load', () => asSyntaxReply(raw));
    return reply.ok ? reply : { ok: false, line: reply.line, message: reply.msg };
  };

  async reserve(): Promise<InterpreterTicket> {
    this.pool.grow();
    const proc = await this.timedTake(false);
    let held: SandboxProcess | null = proc;
    const drop = () => {
      this.held.delete(proc);
      held = null;
    };
    // One that dies while held is not handed to a load (which then takes the next booted one).
    void proc.exited.then(drop);
    this.held.add(proc);
    if (this.closed) proc.kill();
    const ticket = {
      release: () => {
        if (held) this.pool.giveBack(held);
        drop();
      },
      use: () => {
        const taken = held;
        drop();
        return taken;
      },
    };
    this.tickets.add(ticket);
    return ticket;
  }

  async load(code: string, options: LoadOptions): Promise<EnvHandle> {
    const stage = options.stage ?? 'load';
    this.pool.grow();
    const reserved =
      options.ticket && this.tickets.has(options.ticket as Ticket) ? (options.ticket as Ticket).use() : null;
    const interpreter = await this.take(stage, stage !== 'play', reserved);
    options.onRunning?.();
    try {
      const raw = await interpreter.request(
        { op: 'load', code, maxTurns: options.maxTurns, toolBaseAids: options.toolBaseAids !== false },
        'load',
        stage,
        options.timeoutMs,
      );
      const reply = decoded(interpreter, stage, () => asLoadReply(raw));
      if (!reply.ok) throw failureToEnvError(reply, 'load', stage);
      return this.handle(interpreter, reply.cls, reply.solution, options.timeoutMs);
    } catch (error) {
      await this.retire(interpreter);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.pool.close();
    for (const proc of this.held) proc.kill();
    this.held.clear();
    for (const interpreter of this.live) interpreter.retire();
    this.live.clear();
  }

  private async take(
    stage: ValidationStage = 'load',
    urgent = false,
    reserved: SandboxProcess | null = null,
  ): Promise<Interpreter> {
    if (this.closed)
      throw new EnvError(
        'sandbox_crashed',
        stage,
        'Expected an open sandbox. Saw a closed runtime. Fix: create a new runtime.',
      );
    let proc;
    try {
      proc = reserved ?? (await this.timedTake(urgent));
    } catch (error) {
      throw new EnvError(
        'sandbox_crashed',
        stage,
        `Expected a sandbox interpreter to start. Saw ${errorMessage(error)}. Fix: retry; if it repeats, report a bug.`,
      );
    }
    const interpreter = new Interpreter(proc, this.options.maxObservationChars, () => {
      this.killed += 1;
      this.live.delete(interpreter);
      this.pool.replaceKilled();
    });
    if (this.closed) interpreter.retire();
    else this.live.add(interpreter);
    return interpreter;
  }

  // The pool's next interpreter, the time waited for it counted.
  private async timedTake(urgent: boolean): Promise<SandboxProcess> {
    const from = performance.now();
    try {
      return await this.pool.take(urgent);
    } finally {
      this.waited += performance.now() - from;
    }
  }

  // compile() runs no environment code, so one interpreter serves every syntax check until it is killed.
  private async syntaxInterpreter(): Promise<Interpreter> {
    const current = this.syntax ? await this.syntax.catch(() => null) : null;
    if (current?.alive) return current;
    this.syntax = this.take();
    return this.syntax;
  }

  // An environment is done with its interpreter: restored to its sealed state it waits for the
  // next one (a restore takes milliseconds, a boot a second of CPU); one that cannot be restored
  // exactly is killed.
  private async retire(interpreter: Interpreter): Promise<void> {
    this.live.delete(interpreter);
    if (this.closed) return interpreter.retire();
    const restoring = interpreter.recycle(RECYCLE_TIMEOUT_MS).then((proc) => {
      if (proc) this.restored += 1;
      return proc;
    });
    await this.pool.comingBack(restoring);
  }

  private handle(interpreter: Interpreter, className: string, hasSolution: boolean, loadTimeoutMs: number): EnvHandle {
    const max = this.options.maxObservationChars;
    const call = async (op: Exclude<EnvCall, 'load'>, extra: Record<string, unknown>, options: CallOptions = {}) => {
      const stage = options.stage ?? 'play';
      const raw = await interpreter.request(
        { op, ...extra },
        op,
        stage,
        options.timeoutMs ?? this.options.defaultCallTimeoutMs,
      );
      const reply = decoded(interpreter, stage, () => asValueReply(raw, NAMES[op], max));
      if (!reply.ok) throw failureToEnvError(reply, op, stage);
      return { value: reply.value, stage };
    };
    // A contract failure is the environment's; anything else a check throws means the reply broke the protocol.
    const checked = <T>(stage: ValidationStage, check: () => T): T => decoded(interpreter, stage, check);
    return {
      className,
      hasSolution,
      reset: async (seed, options) => {
        const coerce = options?.coerce === true;
        const { value, stage } = await call('reset', { seed, coerce }, options);
        return checked(stage, () => checkResetValue(value, stage, coerce));
      },
      step: async (action, options) => {
        const coerce = options?.coerce === true;
        const { value, stage } = await call('step', { action, coerce }, options);
        return checked(stage, () => checkStepValue(value, stage, coerce));
      },
      solution: async (options) => {
        const { value, stage } = await call('solution', {}, options);
        return checked(stage, () => checkSolutionValue(value, stage));
      },
      executeTool: async (name, args, options) => {
        const { value, stage } = await call('tool', { name, arguments: args }, options);
        return checked(stage, () => checkToolResultValue(value, stage));
      },
      toolFacts: async (options) => {
        const { value, stage } = await call('inspect', {}, options);
        return checked(stage, () => checkToolFactsValue(value, stage));
      },
      close: async (options) => {
        await call('close', {}, options);
      },
      renew: async (options = {}) => {
        const stage = options.stage ?? 'play';
        const raw = await interpreter.request({ op: 'renew' }, 'load', stage, options.timeoutMs ?? loadTimeoutMs);
        const reply = decoded(interpreter, stage, () => asLoadReply(raw));
        if (!reply.ok) throw failureToEnvError(reply, 'load', stage);
      },
      dispose: () => this.retire(interpreter),
    };
  }
}

/**
 * Runs a decoding or a check of one reply: an EnvError is the environment's contract failure;
 * anything else (a malformed value, a value no check expects) broke the protocol, so the
 * interpreter is killed and the environment fails with `bad_harness_reply`.
 */
function decoded<T>(interpreter: Interpreter, stage: ValidationStage, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (isEnvError(error)) throw error;
    interpreter.kill();
    throw protocolError(stage, error);
  }
}
