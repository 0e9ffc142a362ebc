import { EnvError, envError, type EnvErrorCode, type ValidationStage } from '../../core/env/env-error.ts';
import { parseHarnessReply } from '../../core/env/harness-protocol.ts';
import type { EnvCall } from '../../core/env/contract.ts';
import { SerialQueue } from '../serial-queue.ts';
import { RECYCLE_REQUEST, replyLimitFor } from './sandbox-service.ts';
import type { SandboxProcess } from './sandbox-process.ts';
import { errorMessage } from '../../core/error-message.ts';

type Outcome = { kind: 'reply'; value: unknown } | { kind: 'timeout' } | { kind: 'died'; reason: string };

const TIMEOUT_CODE: Record<EnvCall, EnvErrorCode> = {
  load: 'load_timeout',
  reset: 'reset_timeout',
  step: 'step_timeout',
  solution: 'solution_timeout',
  inspect: 'inspect_timeout',
  tool: 'tool_timeout',
  close: 'close_timeout',
};

/**
 * One environment's own interpreter: serialises its calls, enforces hard time limits by killing
 * it, and checks every reply's shape. Once killed (a hang, a crash, a malformed reply) or retired
 * it answers nothing again.
 */
export class Interpreter {
  private readonly queue = new SerialQueue();
  private gone: 'killed' | 'retired' | null = null;

  constructor(
    private readonly proc: SandboxProcess,
    private readonly maxChars: number,
    private readonly onKilled: () => void,
  ) {
    // One that dies between calls counts as killed at once, so no later call is sent to it.
    void proc.exited.then(() => this.kill());
  }

  /** Whether it can still answer. */
  get alive(): boolean {
    return this.gone === null;
  }

  /** Kills it because its environment is done with; not counted as a restart. */
  retire(): void {
    if (this.gone) return;
    this.gone = 'retired';
    this.proc.kill();
  }

  /**
   * Retires it and asks its sandbox, after any call still running, to restore the interpreter to
   * its sealed state: resolves with the sandbox to hand to the next environment, or null when it
   * cannot be restored exactly or did not answer within `timeoutMs` (then it was killed).
   */
  recycle(timeoutMs: number): Promise<SandboxProcess | null> {
    return this.queue.run(async () => {
      if (this.gone) return null;
      this.gone = 'retired';
      const outcome = await raceCall(this.proc, RECYCLE_REQUEST, timeoutMs);
      if (outcome.kind === 'reply' && typeof outcome.value === 'string' && restored(outcome.value)) return this.proc;
      this.proc.kill();
      return null;
    });
  }

  /** Sends one harness request; resolves with the parsed reply or rejects with an EnvError. */
  request(
    body: Record<string, unknown>,
    call: EnvCall,
    stage: ValidationStage,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> {
    return this.queue.run(() => this.exchange(body, call, stage, timeoutMs));
  }

  /** Kills it after a hang, a crash or a reply that broke the protocol (counted as a restart); it answers nothing again. */
  kill(): void {
    if (this.gone) return;
    this.gone = 'killed';
    this.proc.kill();
    this.onKilled();
  }

  private async exchange(
    body: Record<string, unknown>,
    call: EnvCall,
    stage: ValidationStage,
    timeoutMs: number,
  ): Promise<Record<string, unknown>> {
    if (this.gone) {
      throw envError('env_lost', stage, {
        expected: 'the environment to still be loaded',
        seen: this.gone === 'killed' ? 'its interpreter was killed after a hang or crash' : 'it was disposed',
        fix: 'load the environment again',
      });
    }
    const outcome = await raceCall(this.proc, JSON.stringify({ ...body, maxChars: this.maxChars }), timeoutMs);
    if (outcome.kind === 'timeout') {
      this.kill();
      throw envError(TIMEOUT_CODE[call], stage, {
        expected: `${call} to return within ${timeoutMs} ms`,
        seen: 'no answer in time; the sandbox was killed',
        fix: 'remove infinite loops and heavy computation; every call must return quickly',
      });
    }
    if (outcome.kind === 'died') {
      this.kill();
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
        seen: `it stopped (${outcome.reason.slice(0, 500)}); this usually means memory exhaustion or a fatal runtime error`,
        fix: 'keep memory use small and avoid deep recursion',
      });
    }
    try {
      return parseHarnessReply(outcome.value, replyLimitFor(this.maxChars));
    } catch (error) {
      this.kill();
      throw protocolError(stage, error);
    }
  }
}

/** The environment's own failure for a sandbox reply that broke the protocol (its interpreter is killed): `bad_harness_reply`. */
export function protocolError(stage: ValidationStage, error: unknown): EnvError {
  const seen = errorMessage(error);
  return new EnvError(
    'bad_harness_reply',
    stage,
    `Expected a well-formed sandbox reply. Saw ${seen.slice(0, 500)}. Fix: never replace or patch the sandbox harness; its interpreter was killed.`,
  );
}

function restored(reply: string): boolean {
  try {
    return (JSON.parse(reply) as { ok?: unknown } | null)?.ok === true;
  } catch {
    return false;
  }
}

// The time limit starts when the request starts running: at once, or at `onStart` for a sandbox shared with others.
async function raceCall(proc: SandboxProcess, request: string, timeoutMs: number): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settled = false;
  let arm!: () => void;
  const timeout = new Promise<Outcome>((resolve) => {
    arm = () => {
      if (!settled) timer ??= setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
    };
  });
  if (!proc.startsLate) arm();
  const died = proc.exited.then((reason): Outcome => ({ kind: 'died', reason }));
  const answered = proc.call(request, proc.startsLate ? arm : undefined).then(
    (value): Outcome => ({ kind: 'reply', value }),
    (error: unknown): Outcome => ({ kind: 'died', reason: errorMessage(error) }),
  );
  try {
    return await Promise.race([answered, timeout, died]);
  } finally {
    settled = true;
    clearTimeout(timer);
  }
}
