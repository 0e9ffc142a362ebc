import type { InterpreterPool } from './interpreter-pool.ts';
import type { SandboxProcess } from './sandbox-process.ts';
import { LONG_CALL_MS, SharedInterpreter, Tenant, type TenantPlacer } from './shared-interpreter.ts';

/** What the runtime asks of its interpreters' pool (InterpreterPool, or a SharingPool over one). */
export type SandboxPool = Pick<
  InterpreterPool,
  'boots' | 'grow' | 'take' | 'whenReady' | 'giveBack' | 'comingBack' | 'replaceKilled' | 'close'
>;

/**
 * A pool that never makes an environment wait for a boot while an interpreter can be shared: it
 * hands out shares of interpreters (see shared-interpreter.ts): a booted spare of its own when one
 * waits (the last one only while fewer than `spread` interpreters are in use, as many as the
 * machine runs side by side: taking it starts a boot to replace it), else a share of the least
 * shared interpreter with room (`tenantsEach`), else a spare once one boots. Parking an
 * environment costs milliseconds where a boot costs most of a second of CPU, so a first epoch
 * boots about `spread` interpreters, and later ones also use those restored and kept since. An
 * interpreter nobody shares any more goes back to the underlying pool.
 */
export class SharingPool implements SandboxPool {
  private readonly shared = new Set<SharedInterpreter>();
  // Where this pool's tenants move when their interpreter is lost or held up.
  private readonly placer: TenantPlacer = {
    place: (tenant, avoid) =>
      this.place(
        true,
        (shared) => {
          shared.welcome(tenant);
          return shared;
        },
        avoid,
      ),
    roomBesides: (avoid) => this.pool.waiting > 0 || this.roomiest(avoid) !== undefined,
  };

  constructor(
    private readonly pool: InterpreterPool,
    private readonly tenantsEach: number,
    private readonly spread: number,
  ) {}

  /** Number of interpreters booted so far. */
  get boots(): number {
    return this.pool.boots;
  }

  /** Keeps the underlying pool's spares booted from now on: environments are being loaded. */
  grow(): void {
    this.pool.grow();
  }

  /** Resolves once `count` spares wait in the underlying pool (see InterpreterPool.whenReady). */
  whenReady(count?: number): Promise<void> {
    return this.pool.whenReady(count);
  }

  /** Starts the next spare at once: a killed interpreter has freed its core. */
  replaceKilled(): void {
    this.pool.replaceKilled();
  }

  /** Resolves with a share of an interpreter that nothing else sees; `urgent` as InterpreterPool.take. */
  take(urgent = false): Promise<SandboxProcess> {
    return this.place(urgent, (shared) => shared.admit(this.placer));
  }

  /** Takes back a share its environment is done with (restored, or never used), or an interpreter of its own. */
  giveBack(proc: SandboxProcess, warm = false): void {
    if (proc instanceof Tenant) proc.release();
    else this.pool.giveBack(proc, warm);
  }

  /** Takes back what a restore resolves with, once it does (nothing when it could not restore). */
  async comingBack(restored: Promise<SandboxProcess | null>): Promise<void> {
    const proc = await restored.catch(() => null);
    if (proc) this.giveBack(proc, true);
  }

  /** Kills every interpreter, shared or waiting, and boots no more. */
  close(): void {
    this.pool.close();
    for (const shared of this.shared) shared.proc.kill();
    this.shared.clear();
  }

  // A spare of its own when one waits (the last one only below `spread`), else the least shared
  // interpreter with room, else the next spare. `enter` runs as soon as the interpreter is chosen,
  // before anything else can run: one that lost its last tenant goes back to the pool unless a
  // new one entered first.
  private async place<T>(
    urgent: boolean,
    enter: (shared: SharedInterpreter) => T,
    avoid?: SharedInterpreter,
  ): Promise<T> {
    const waiting = this.pool.waiting;
    if (waiting === 0 || (waiting === 1 && this.shared.size >= this.spread)) {
      const roomiest = this.roomiest(avoid);
      if (roomiest) return enter(roomiest);
    }
    const proc = await this.pool.take(urgent);
    const shared = new SharedInterpreter(proc, (empty) => {
      this.shared.delete(empty);
      this.pool.giveBack(empty.proc, true);
    });
    this.shared.add(shared);
    void proc.exited.then(() => this.shared.delete(shared));
    return enter(shared);
  }

  // The least shared interpreter with room but `avoid`, leaving out any busy with a long call.
  private roomiest(avoid?: SharedInterpreter): SharedInterpreter | undefined {
    return [...this.shared]
      .filter((shared) => shared !== avoid && shared.open && shared.tenants.size < this.tenantsEach)
      .filter((shared) => shared.busyFor() < LONG_CALL_MS)
      .sort((a, b) => a.tenants.size - b.tenants.size)[0];
  }
}
