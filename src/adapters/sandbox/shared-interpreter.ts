import { errorMessage } from '../../core/error-message.ts';
import { SerialQueue } from '../serial-queue.ts';
import type { SandboxProcess } from './sandbox-process.ts';
import { dropRequest, RECYCLE_REQUEST, refusedReply, switchRequest } from './sandbox-service.ts';

/** Milliseconds a park, a resume, a drop, a seeding or a restore may take before the interpreter is killed (each copies a few MB). */
const MEMORY_OP_TIMEOUT_MS = 5000;

/** Milliseconds one replayed call may take on a new interpreter (the environment answered it before, within its own limit). */
const REPLAY_CALL_TIMEOUT_MS = 10_000;

/** Interpreters a tenant moves to at most in one call before it gives up (each lost its previous one). */
const MAX_MOVES = 3;

/** A call running this long may be a hang, which holds its interpreter up to its time limit: the calls waiting behind it move to an interpreter with room when one has it, and no new tenant is placed beside it. */
export const LONG_CALL_MS = 500;

/** How often a waiting call looks at how long the call ahead of it has run. */
const WAIT_CHECK_MS = 100;

// One call's place in its interpreter's queue: started once it runs; cancelled when it moved away before that.
interface Ticket {
  started: boolean;
  cancelled: boolean;
}

/** A tenant's request did not start where it was sent (the interpreter died or keeps another environment): it may move and try again. */
export class InterpreterLost extends Error {}

/** Where tenants find interpreters (a SharingPool). */
export interface TenantPlacer {
  /** Finds an interpreter with room for `tenant` (a spare, one already shared, or one booted for it), never `avoid`, and welcomes it there at once. */
  place(tenant: Tenant, avoid?: SharedInterpreter): Promise<SharedInterpreter>;
  /** Whether an interpreter other than `avoid` has room now, without a boot. */
  roomBesides(avoid: SharedInterpreter): boolean;
}

/**
 * One booted interpreter lent to several environments at once: one of them (the resident) is in its
 * memory, the others wait parked (their differing pages held by the interpreter's worker, outside
 * its memory; see memory-image.ts), so each environment finds the interpreter exactly as it left
 * it and never sees another's state. Calls run one at a time. When the resident's state cannot be
 * parked (it changed something outside memory), the interpreter stays with it alone; when the
 * interpreter dies, the environment whose call was running dies with it and the others move.
 */
export class SharedInterpreter {
  /** The environments lent this interpreter. */
  readonly tenants = new Set<Tenant>();
  private resident: Tenant | null = null;
  private running: Tenant | null = null;
  private runningSince = 0;
  private readonly slots = new Map<Tenant, number>();
  private readonly queue = new SerialQueue();
  private dead = false;
  private pinned = false;
  private returned = false;

  constructor(
    readonly proc: SandboxProcess,
    private readonly onEmpty: (shared: SharedInterpreter) => void,
  ) {
    void proc.exited.then(() => {
      this.dead = true;
    });
  }

  /** Whether a new tenant may be placed here. */
  get open(): boolean {
    return !this.dead && !this.pinned && !this.returned;
  }

  /** Lends this interpreter to one more environment. */
  admit(placer: TenantPlacer): Tenant {
    const tenant = new Tenant(this, placer);
    this.tenants.add(tenant);
    return tenant;
  }

  /** Milliseconds the call running now has run (0 when none runs). */
  busyFor(): number {
    return this.running ? performance.now() - this.runningSince : 0;
  }

  /** Takes `tenant` in (a new one, or one moving here) without running anything yet. */
  welcome(tenant: Tenant): void {
    this.tenants.add(tenant);
  }

  /**
   * Runs `request` for `tenant` once its state is in memory (parking the resident's first):
   * `onStart` is called as it starts. Rejects with InterpreterLost when it could not start here,
   * or with why the interpreter died while it ran (it is the culprit). `timeoutMs` bounds a call
   * no Interpreter times (a replay): past it the interpreter is killed. A `ticket` cancelled
   * before its turn does not run.
   */
  run(tenant: Tenant, request: string, onStart?: () => void, timeoutMs?: number, ticket?: Ticket): Promise<unknown> {
    return this.queue.run(async () => {
      if (ticket?.cancelled) throw new InterpreterLost('it moved to another interpreter');
      if (ticket) ticket.started = true;
      if (!this.tenants.has(tenant)) throw new Error('this share of an interpreter was given up');
      if (this.dead || (this.pinned && this.resident !== tenant))
        throw new InterpreterLost('its interpreter died or keeps another environment');
      await this.bringIn(tenant);
      onStart?.();
      this.running = tenant;
      this.runningSince = performance.now();
      try {
        return await this.send(request, timeoutMs);
      } finally {
        this.running = null;
      }
    });
  }

  /** Restores the interpreter after `tenant`'s environment (or forgets its parked state) and lets it go, `onStart` called as that starts: the reply is the service's. */
  recycle(tenant: Tenant, onStart?: () => void): Promise<string> {
    return this.queue.run(async () => {
      onStart?.();
      this.tenants.delete(tenant);
      const reply = await this.clearOut(tenant);
      this.noteEmpty();
      return reply;
    });
  }

  /** `tenant` was killed: a running call is stopped by killing the interpreter, otherwise its state is cleared away. */
  evict(tenant: Tenant): void {
    if (this.running === tenant) {
      this.tenants.delete(tenant);
      this.proc.kill();
    } else this.leave(tenant);
  }

  /** `tenant` moved elsewhere or gave its share up: its state here is cleared away after the calls queued. */
  leave(tenant: Tenant): void {
    this.tenants.delete(tenant);
    void this.queue.run(async () => {
      await this.clearOut(tenant);
      this.noteEmpty();
    });
  }

  // Takes `tenant`'s state out of this interpreter: a restore when resident, a drop when parked.
  private async clearOut(tenant: Tenant): Promise<string> {
    if (this.dead) return '{"ok":true}';
    if (this.resident === tenant) {
      this.resident = null;
      const reply = await this.memoryOp(RECYCLE_REQUEST).catch((error: unknown) => refusedReply(errorMessage(error)));
      // Restored, the interpreter holds nothing of the environment that kept it alone.
      if (isOk(reply)) this.pinned = false;
      else this.proc.kill();
      return reply;
    }
    const slot = this.slots.get(tenant);
    if (slot === undefined) return '{"ok":true}';
    this.slots.delete(tenant);
    return this.memoryOp(dropRequest(slot)).catch((error: unknown) => refusedReply(errorMessage(error)));
  }

  // With no tenant left, the interpreter goes back to its pool (or dies when it cannot be reused).
  private noteEmpty(): void {
    if (this.tenants.size > 0 || this.dead || this.returned) return;
    this.returned = true;
    if (this.pinned || this.resident) this.proc.kill();
    else this.onEmpty(this);
  }

  private async bringIn(tenant: Tenant): Promise<void> {
    if (this.resident === tenant) return;
    const slot = this.slots.get(tenant);
    const reply = parseReply(
      await this.memoryOp(switchRequest(this.resident !== null, slot === undefined ? { seed: tenant.seed } : { slot })),
    );
    if (this.resident && typeof reply.parked === 'number') {
      this.slots.set(this.resident, reply.parked);
      this.resident = null;
    }
    if (reply.ok === true) {
      this.slots.delete(tenant);
      this.resident = tenant;
      return;
    }
    if (this.resident) {
      this.pinned = true;
      throw new InterpreterLost(`the environment in its interpreter cannot be parked (${String(reply.why)})`);
    }
    this.proc.kill();
    throw new InterpreterLost(`its interpreter could not take it in (${String(reply.why)})`);
  }

  // A request to the service about memory: a reply that is not text, a death or a hang loses the interpreter.
  private async memoryOp(request: string): Promise<string> {
    try {
      const reply = await this.send(request, MEMORY_OP_TIMEOUT_MS);
      if (typeof reply !== 'string') throw new Error('a memory request got a reply that is not text');
      return reply;
    } catch (error) {
      this.proc.kill();
      throw new InterpreterLost(`its interpreter failed a memory request (${errorMessage(error)})`);
    }
  }

  // Sends one request; rejects with why the interpreter died meanwhile, or after `timeoutMs` (then it is killed).
  private async send(request: string, timeoutMs?: number): Promise<unknown> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcomes: Promise<unknown>[] = [
      this.proc.call(request),
      this.proc.exited.then((reason) => Promise.reject(new Error(reason))),
    ];
    if (timeoutMs !== undefined)
      outcomes.push(
        new Promise((_, reject) => {
          timer = setTimeout(() => {
            this.proc.kill();
            reject(new Error(`no answer within ${timeoutMs} ms; the interpreter was killed`));
          }, timeoutMs);
        }),
      );
    try {
      return await Promise.race(outcomes);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * One environment's share of an interpreter, used like an interpreter of its own. It keeps every
 * request since it began and its reply: when its interpreter is lost through another environment
 * (a hang, a crash, a state that cannot be parked), it moves to another and replays them, and goes
 * on only if every reply is the same as before (it dies otherwise, saying why).
 */
export class Tenant implements SandboxProcess {
  /** Calls wait while another environment's call runs in the shared interpreter. */
  readonly startsLate = true;
  /** The seed of `random` its environment starts with (drawn here, so that a replay starts alike). */
  readonly seed = String(globalThis.crypto.getRandomValues(new BigUint64Array(1))[0]);
  readonly exited: Promise<string>;
  private settle!: (reason: string) => void;
  private gone = false;
  private readonly log: { request: string; reply: string }[] = [];
  private readonly queue = new SerialQueue();

  constructor(
    private home: SharedInterpreter,
    private readonly placer: TenantPlacer,
  ) {
    this.exited = new Promise((resolve) => {
      this.settle = resolve;
    });
  }

  /** Runs one request once this environment is in its interpreter's memory (moving and replaying when that interpreter was lost); `onStart` as it starts. */
  call(request: string, onStart?: () => void): Promise<unknown> {
    return this.queue.run(async () => {
      if (this.gone) throw new Error('this share of an interpreter was given up');
      if (request === RECYCLE_REQUEST) {
        this.log.length = 0;
        return this.home.recycle(this, onStart);
      }
      for (let moves = 0; ; moves += 1) {
        try {
          const ticket = { started: false, cancelled: false };
          const reply = await this.waitOrMove(this.home.run(this, request, onStart, undefined, ticket), ticket);
          if (typeof reply === 'string' && !request.startsWith('{"op":"syntax"')) this.log.push({ request, reply });
          return reply;
        } catch (error) {
          if (!(error instanceof InterpreterLost) || moves >= MAX_MOVES) throw this.die(errorMessage(error));
          await this.move(this.home).catch((moveError: unknown) => {
            if (!(moveError instanceof InterpreterLost)) throw this.die(errorMessage(moveError));
          });
        }
      }
    });
  }

  /** Gives up at once: a running call is stopped by killing the interpreter, a parked state is cleared away. */
  kill(): void {
    if (!this.gone) this.die('killed');
  }

  /** Gives this share up once its environment is done with it (restored, or never used). */
  release(): void {
    if (this.gone) return;
    this.gone = true;
    this.settle('released');
    this.home.leave(this);
  }

  // The outcome of `job`, or InterpreterLost once it has waited behind another environment's call
  // that ran LONG_CALL_MS while another interpreter has room (the job is then cancelled).
  private waitOrMove(job: Promise<unknown>, ticket: Ticket): Promise<unknown> {
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const look = () => {
        if (!ticket.started && this.home.busyFor() >= LONG_CALL_MS && this.placer.roomBesides(this.home)) {
          ticket.cancelled = true;
          reject(new InterpreterLost("its interpreter is held by another environment's long call"));
        } else timer = setTimeout(look, WAIT_CHECK_MS);
      };
      timer = setTimeout(look, WAIT_CHECK_MS);
      job.then(resolve, reject).finally(() => clearTimeout(timer));
    });
  }

  // Moves to another interpreter than `from` and replays every request there, checking each reply.
  private async move(from: SharedInterpreter): Promise<void> {
    this.home.leave(this);
    this.home = await this.placer.place(this, from);
    for (const { request, reply } of this.log) {
      const again = await this.home.run(this, request, undefined, REPLAY_CALL_TIMEOUT_MS);
      if (again !== reply)
        throw new Error(
          `its interpreter was lost through another environment, and replaying its calls on a new one gave a different reply (${request.slice(0, 40)}...): the environment is not deterministic given its seed`,
        );
    }
  }

  // Gives up for good: its state leaves the interpreter (a running call is stopped by killing it).
  private die(reason: string): Error {
    if (!this.gone) {
      this.gone = true;
      this.settle(reason);
      this.home.evict(this);
    }
    return new Error(reason);
  }
}

function parseReply(reply: string): { ok?: unknown; parked?: unknown; why?: unknown } {
  try {
    return (JSON.parse(reply) as { ok?: unknown; parked?: unknown; why?: unknown } | null) ?? {};
  } catch {
    return { why: reply.slice(0, 200) };
  }
}

function isOk(reply: string): boolean {
  return parseReply(reply).ok === true;
}
