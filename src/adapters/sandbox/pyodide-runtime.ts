import type { CallOptions, EnvHandle, LoadOptions, SandboxRuntime } from '../../core/sandbox-port.ts';
import type { SyntaxCheck } from '../../core/env/fstring-repair.ts';
import { EnvError, envError, type EnvErrorCode, type ValidationStage } from '../../core/env/env-error.ts';
import {
  asLoadReply, asRenewReply, asSyntaxReply, asValueReply, HarnessProtocolError, parseHarnessReply,
} from '../../core/env/harness-protocol.ts';
import {
  checkResetValue, checkSolutionValue, checkStepValue, failureToEnvError, type EnvCall,
} from '../../core/env/contract.ts';
import { replyLimitFor } from './sandbox-service.ts';
import { SerialQueue } from '../serial-queue.ts';

/** One running sandbox (a process or a worker) that can answer harness calls and be killed. */
export interface SandboxProcess {
  /** Sends one JSON request; resolves with whatever came back (checked by the caller). */
  call(request: string): Promise<unknown>;
  /** Kills it at once, whatever it is doing. */
  kill(): void;
  /** Resolves with a reason when it dies on its own. */
  readonly exited: Promise<string>;
}

/** Starts a fresh, fully loaded sandbox. */
export type SpawnSandbox = () => Promise<SandboxProcess>;

/** Settings of a Pyodide sandbox runtime. */
export interface PyodideRuntimeOptions {
  /** Longest string (observation, info, solution) accepted from an environment, in characters. */
  maxObservationChars: number;
  /** Keep one warm spare so a kill does not stall the next call. */
  keepSpare: boolean;
  /** Default per-call limit when a call names none, in milliseconds. */
  defaultCallTimeoutMs: number;
}

/** Defaults: 100 000-character outputs, a warm spare, 2 s per call. */
export const DEFAULT_RUNTIME_OPTIONS: PyodideRuntimeOptions = {
  maxObservationChars: 100_000,
  keepSpare: true,
  defaultCallTimeoutMs: 2000,
};

type Outcome = { kind: 'reply'; value: unknown } | { kind: 'timeout' } | { kind: 'died'; reason: string };

const TIMEOUT_CODE: Record<EnvCall, EnvErrorCode> = {
  load: 'load_timeout',
  reset: 'reset_timeout',
  step: 'step_timeout',
  solution: 'solution_timeout',
};

/**
 * Host side of a Pyodide sandbox: serialises calls, enforces hard time limits by killing the
 * sandbox, swaps in a warm spare, and checks every reply before trusting it.
 */
export class PyodideSandboxRuntime implements SandboxRuntime {
  private active: Promise<SandboxProcess> | null = null;
  private spare: Promise<SandboxProcess> | null = null;
  private generation = 0;
  private loadsSinceStart = 0;
  private recycled: string[] = [];
  private readonly retired = new WeakSet<SandboxProcess>();
  private readonly queue = new SerialQueue();
  private closed = false;
  private readonly options: PyodideRuntimeOptions;

  constructor(private readonly spawn: SpawnSandbox, options: Partial<PyodideRuntimeOptions> = {}) {
    this.options = { ...DEFAULT_RUNTIME_OPTIONS, ...options };
  }

  /** Number of times a sandbox was killed or died and was replaced. */
  get restarts(): number {
    return this.generation;
  }

  /** Why sandboxes were recycled before a load (an earlier environment changed shared Python state). */
  get recycleReasons(): readonly string[] {
    return this.recycled;
  }

  /** Starts the sandbox (and its spare) now; a tainted one is recycled here, so no caller's budget pays for it. */
  async warm(): Promise<void> {
    await this.recycleIfTainted('load').catch(() => undefined);
    await this.current();
  }

  /** Resolves once the warm spare (if kept) has started; benchmarks use it to time recovery fairly. */
  async whenSpareReady(): Promise<void> {
    await this.current();
    this.fillSpare();
    await this.spare;
  }

  readonly checkSyntax = async (source: string, mode: 'exec' | 'eval'): Promise<SyntaxCheck> => {
    const reply = asSyntaxReply(await this.request({ op: 'syntax', source, mode }, 'load', 'load', this.options.defaultCallTimeoutMs * 5));
    return reply.ok ? reply : { ok: false, line: reply.line, message: reply.msg };
  };

  async load(code: string, options: LoadOptions): Promise<EnvHandle> {
    const stage = options.stage ?? 'load';
    await this.recycleIfTainted(stage);
    this.loadsSinceStart += 1;
    const reply = asLoadReply(await this.request({ op: 'load', code, maxTurns: options.maxTurns }, 'load', stage, options.timeoutMs));
    if (!reply.ok) throw failureToEnvError(reply, 'load', stage);
    return this.handle(reply.id, reply.cls, reply.solution, this.generation);
  }

  // Environments share one interpreter; if an earlier one changed the standard library, the
  // import guard or sys settings, start the next one on a fresh sandbox.
  private async recycleIfTainted(stage: ValidationStage): Promise<void> {
    if (this.loadsSinceStart === 0) return;
    const reply = await this.request({ op: 'integrity' }, 'load', stage, this.options.defaultCallTimeoutMs);
    const problems = Array.isArray(reply.problems) ? reply.problems.filter((p): p is string => typeof p === 'string') : ['unreadable integrity reply'];
    if (problems.length === 0) return;
    this.recycled.push(problems.slice(0, 5).join(', '));
    this.replace(await this.current());
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [this.active, this.spare].filter((p): p is Promise<SandboxProcess> => p !== null);
    this.active = this.spare = null;
    await Promise.all(all.map((p) => p.then((proc) => proc.kill(), () => undefined)));
  }

  private handle(id: number, className: string, hasSolution: boolean, generation: number): EnvHandle {
    const call = async (op: EnvCall, extra: Record<string, unknown>, options: CallOptions = {}) => {
      const stage = options.stage ?? 'play';
      if (generation !== this.generation) {
        throw envError('env_lost', stage, {
          expected: 'the environment to still be loaded',
          seen: 'its sandbox was restarted after a hang or crash',
          fix: 'load the environment again',
        });
      }
      const reply = asValueReply(await this.request({ op, id, ...extra }, op, stage, options.timeoutMs ?? this.options.defaultCallTimeoutMs));
      if (!reply.ok) throw failureToEnvError(reply, op, stage);
      return { value: reply.value, stage };
    };
    return {
      className,
      hasSolution,
      reset: async (seed, options) => {
        const { value, stage } = await call('reset', { seed }, options);
        return checkResetValue(value, stage);
      },
      step: async (action, options) => {
        const { value, stage } = await call('step', { action }, options);
        return checkStepValue(value, stage);
      },
      renew: async (options) => {
        const stage = options?.stage ?? 'play';
        const reply = asRenewReply(await this.request({ op: 'renew', id }, 'load', stage, options?.timeoutMs ?? this.options.defaultCallTimeoutMs));
        if (!reply.ok) throw failureToEnvError(reply, 'load', stage);
      },
      solution: async (options) => {
        const { value, stage } = await call('solution', {}, options);
        return checkSolutionValue(value, stage);
      },
      dispose: async () => {
        if (generation === this.generation && !this.closed) {
          await this.request({ op: 'dispose', id }, 'reset', 'play', this.options.defaultCallTimeoutMs).catch(() => undefined);
        }
      },
    };
  }

  private request(body: Record<string, unknown>, call: EnvCall, stage: ValidationStage, timeoutMs: number): Promise<Record<string, unknown>> {
    return this.queue.run(() => this.exchange(body, call, stage, timeoutMs));
  }

  private async exchange(body: Record<string, unknown>, call: EnvCall, stage: ValidationStage, timeoutMs: number): Promise<Record<string, unknown>> {
    if (this.closed) throw new EnvError('sandbox_crashed', stage, 'Expected an open sandbox. Saw a closed runtime. Fix: create a new runtime.');
    const proc = await this.current();
    const request = JSON.stringify({ ...body, maxChars: this.options.maxObservationChars });
    const outcome = await raceCall(proc, request, timeoutMs);
    if (outcome.kind === 'timeout') {
      this.replace(proc);
      throw envError(TIMEOUT_CODE[call], stage, {
        expected: `${call} to return within ${timeoutMs} ms`,
        seen: 'no answer in time; the sandbox was killed',
        fix: 'remove infinite loops and heavy computation; every call must return quickly',
      });
    }
    if (outcome.kind === 'died') {
      this.replace(proc);
      // os._exit(n) ends Pyodide with Emscripten's "Program terminated with exit(n)": an exit, not a crash.
      const exit = /Program terminated with exit\((-?\d+)\)/.exec(outcome.reason);
      if (exit) {
        throw envError('process_exit', stage, {
          expected: `${call} to return without exiting`,
          seen: `a hard exit with status ${exit[1]} (os._exit); the sandbox was restarted`,
          fix: 'never call os._exit, sys.exit, exit or quit; return a terminal step instead',
        });
      }
      throw envError('sandbox_crashed', stage, {
        expected: `the sandbox to survive ${call}`,
        seen: `it stopped (${outcome.reason}); this usually means memory exhaustion or a fatal runtime error`,
        fix: 'keep memory use small and avoid deep recursion',
      });
    }
    try {
      return parseHarnessReply(outcome.value, replyLimitFor(this.options.maxObservationChars));
    } catch (error) {
      this.replace(proc);
      if (error instanceof HarnessProtocolError) {
        throw new EnvError('bad_harness_reply', stage, `Expected a well-formed sandbox reply. Saw ${error.message}. Fix: the sandbox was restarted; load the environment again.`);
      }
      throw error;
    }
  }

  private current(): Promise<SandboxProcess> {
    if (!this.active) {
      const next = this.spare ?? this.spawn();
      this.active = next;
      this.spare = null;
      // A sandbox that dies between calls is replaced at once, not blamed on the next call.
      next.then((proc) => proc.exited.then(() => this.active === next && this.replace(proc)), () => {
        if (this.active === next) this.active = null;
      });
    }
    if (this.options.keepSpare && !this.spare) {
      void this.active.then(() => this.fillSpare(), () => undefined);
    }
    return this.active;
  }

  private fillSpare(): void {
    if (this.closed || this.spare || !this.options.keepSpare) return;
    const spare = this.spawn();
    this.spare = spare;
    spare.catch(() => {
      if (this.spare === spare) this.spare = null;
    });
  }

  private replace(dead: SandboxProcess): void {
    dead.kill();
    if (this.retired.has(dead)) return;
    this.retired.add(dead);
    this.generation += 1;
    this.loadsSinceStart = 0;
    this.active = null;
    if (!this.closed) void this.current();
  }
}

async function raceCall(proc: SandboxProcess, request: string, timeoutMs: number): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
  });
  const died = proc.exited.then((reason): Outcome => ({ kind: 'died', reason }));
  const answered = proc.call(request).then(
    (value): Outcome => ({ kind: 'reply', value }),
    (error: unknown): Outcome => ({ kind: 'died', reason: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([answered, timeout, died]);
  } finally {
    clearTimeout(timer);
  }
}
