import type { CallOptions, EnvHandle } from '../ports/sandbox-port.ts';
import { envError, isEnvError, type EnvError, type ValidationStage } from './env-error.ts';

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'load_timeout',
  'reset_timeout',
  'step_timeout',
  'solution_timeout',
  'inspect_timeout',
  'close_timeout',
]);

/**
 * The validation budget, charged only with the time the environment's own code runs in its
 * interpreter (docs/method.md section 1, "Validate"): each call from when it is sent to its
 * interpreter until it answers. Waiting for an interpreter (its boot, a snapshot restore, a queue
 * for a free one) and the syntax checks of the f-string repair are never charged.
 */
export class ValidationBudget {
  private readonly spent = new Map<ValidationStage, number>();

  constructor(
    private readonly totalMs: number,
    private readonly callMs: number,
    private readonly now: () => number,
  ) {}

  /** Milliseconds the environment's code has run so far. */
  get usedMs(): number {
    let sum = 0;
    for (const ms of this.spent.values()) sum += ms;
    return sum;
  }

  /** The limit for the next call (the per-call cap, or what is left of the budget if less); throws `validation_timeout` when nothing is left. */
  limit(stage: ValidationStage, call: string): number {
    const remaining = this.totalMs - this.usedMs;
    if (remaining <= 0) throw this.exhausted(stage, call);
    return Math.min(this.callMs, remaining);
  }

  /** Adds `ms` of the environment's running time to `stage`. */
  charge(stage: ValidationStage, ms: number): void {
    this.spent.set(stage, (this.spent.get(stage) ?? 0) + Math.max(0, ms));
  }

  /**
   * Runs one call of the environment under the budget. `body` gets the call's limit and a
   * `running` callback for when the environment's code starts (a load calls it once its
   * interpreter is handed over; until then nothing is charged). A call killed at a limit lowered
   * to what was left of the budget is reported as the whole budget running out.
   */
  async run<T>(
    stage: ValidationStage,
    call: string,
    body: (timeoutMs: number, running: () => void) => Promise<T>,
  ): Promise<T> {
    const limit = this.limit(stage, call);
    let started = this.now();
    let result: T;
    try {
      result = await body(limit, () => {
        started = this.now();
      });
    } catch (error) {
      this.charge(stage, this.now() - started);
      if (limit < this.callMs && isEnvError(error) && TIMEOUT_CODES.has(error.code)) throw this.exhausted(stage, call);
      throw error;
    }
    this.charge(stage, this.now() - started);
    return result;
  }

  /** A view of `handle` whose every call is limited, timed and charged to the stage it names (default `probe`). */
  track(handle: EnvHandle): EnvHandle {
    const run = <T>(
      options: CallOptions | undefined,
      call: string,
      fn: (options: CallOptions) => Promise<T>,
    ): Promise<T> => {
      const stage = options?.stage ?? 'probe';
      return this.run(stage, call, (limit) => fn({ stage, timeoutMs: Math.min(options?.timeoutMs ?? limit, limit) }));
    };
    return {
      className: handle.className,
      hasSolution: handle.hasSolution,
      reset: (seed, options) => run(options, `reset(seed=${seed})`, (o) => handle.reset(seed, o)),
      step: (action, options) =>
        run(options, `step(${JSON.stringify(action.slice(0, 40))})`, (o) => handle.step(action, o)),
      renew: (options) => run(options, 'a fresh instance', (o) => handle.renew(o)),
      executeTool: (name, args, options) =>
        run(options, `execute_tool(${JSON.stringify(name.slice(0, 40))})`, (o) => handle.executeTool(name, args, o)),
      toolFacts: (options) => run(options, 'reading the tool facts', (o) => handle.toolFacts(o)),
      solution: (options) => run(options, 'solution()', (o) => handle.solution(o)),
      ...(handle.close ? { close: (options?: CallOptions) => run(options, 'close()', (o) => handle.close!(o)) } : {}),
      dispose: () => handle.dispose(),
    };
  }

  private exhausted(stage: ValidationStage, call: string): EnvError {
    const parts = [...this.spent].filter(([, ms]) => ms > 0);
    const slowest = parts.reduce<[ValidationStage, number] | null>(
      (best, part) => (best && best[1] >= part[1] ? best : part),
      null,
    );
    const breakdown = parts.map(([name, ms]) => `${name} ${Math.round(ms)} ms`).join(', ');
    return envError('validation_timeout', stage, {
      expected: `the environment's own code to run for at most ${this.totalMs} ms in all during validation (waiting for the sandbox is not counted)`,
      seen: `it ran for ${Math.round(this.usedMs)} ms (${breakdown || 'nothing yet'}), and the budget ran out at the ${stage} stage, at ${call}`,
      fix: `${slowest ? `speed up the ${slowest[0]} stage, where most of the time went` : 'speed up the environment'}: no long loops, searches or precomputation in __init__, reset or step`,
    });
  }
}
