import type { SandboxProcess, SpawnSandbox } from './sandbox-process.ts';

interface Waiter {
  resolve(proc: SandboxProcess): void;
  reject(error: unknown): void;
  urgent: boolean;
}

/**
 * Booted interpreters waiting for an environment: keeps `size` of them started or starting, hands
 * out one per environment and boots a replacement in the background, so start-up happens before
 * a load asks and is never charged to a call's time limit. Until the first `grow()` it keeps only
 * `idleSize` (an open page or a command that has not loaded an environment yet holds less memory
 * and boots less). At most `bootsAtOnce` boot side by side (a boot is CPU-bound: more at once on
 * fewer cores only delays the first one), and only while something waits for one: spares nobody
 * waits for yet boot one at a time beside the environments running. Interpreters restored after
 * an environment come back here too, up to `keptAtMost` waiting: while they last, no boot is
 * needed, and one being restored counts as waiting already. Once grown, it also keeps as many
 * interpreters in all (waiting, booting, restoring or handed out) as were ever wanted at once, up to `keptAtMost`:
 * boots that fell behind a burst of demand go on while the demand rests (a designer writing the
 * next environments), so the next burst finds them booted.
 */
export class InterpreterPool {
  private readonly ready: SandboxProcess[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly watchers: { count: number; done: () => void; fail: (error: unknown) => void }[] = [];
  private booting = 0;
  private restoring = 0;
  private readonly lent = new Set<SandboxProcess>();
  private readonly watched = new WeakSet<SandboxProcess>();
  private mostWanted = 0;
  private grown = false;
  private bootsDone = 0;
  private closed = false;
  private readonly stopBooting = new AbortController();
  private target: number;

  constructor(
    private readonly spawn: SpawnSandbox,
    private readonly size: number,
    private readonly bootsAtOnce = 1,
    idleSize = size,
    private readonly keptAtMost = size,
  ) {
    this.target = Math.max(1, Math.min(idleSize, size));
  }

  /** Number of booted interpreters waiting to be taken. */
  get waiting(): number {
    return this.ready.length;
  }

  /** Number of interpreters booted so far. */
  get boots(): number {
    return this.bootsDone;
  }

  /** Keeps the full `size` booted from now on: environments are being loaded. */
  grow(): void {
    this.target = this.size;
    this.grown = true;
    this.fill();
  }

  /**
   * Resolves with a booted interpreter that nothing else has used; waits for one if none is ready,
   * behind every earlier waiter, or before every waiter that is not `urgent` when it is (a
   * validation, which the design waits for, goes before plays loaded ahead of their turn).
   */
  take(urgent = false): Promise<SandboxProcess> {
    if (this.closed) return Promise.reject(new Error('the sandbox runtime is closed'));
    const proc = this.ready.shift();
    const taken = proc
      ? Promise.resolve(this.lend(proc))
      : new Promise<SandboxProcess>((resolve, reject) => {
          const at = urgent ? this.waiters.findIndex((w) => !w.urgent) : -1;
          this.waiters.splice(at < 0 ? this.waiters.length : at, 0, {
            resolve: (booted) => resolve(this.lend(booted)),
            reject,
            urgent,
          });
        });
    this.mostWanted = Math.max(this.mostWanted, this.lent.size + this.waiters.length);
    this.fill();
    return taken;
  }

  /** Resolves once `count` interpreters (at most the pool's size, which it keeps from then on) are booted and waiting; rejects when a boot fails. */
  whenReady(count: number = this.size): Promise<void> {
    const wanted = Math.min(count, this.size);
    this.target = Math.max(this.target, wanted);
    if (this.ready.length >= wanted || this.closed) {
      this.fill();
      return Promise.resolve();
    }
    const ready = new Promise<void>((done, fail) => this.watchers.push({ count: wanted, done, fail }));
    this.fill();
    return ready;
  }

  /**
   * Takes an interpreter as sealed (just booted, taken and given back unused, or restored after an
   * environment): the next waiter gets it, or it waits as a spare; one beyond `keptAtMost` waiting
   * is killed (a spare holds a few hundred MB). A `warm` one (restored after running an
   * environment, so its engine has compiled the harness's hot paths) is handed out before the
   * spares that never ran one: a load and the first calls in it cost less CPU.
   */
  giveBack(proc: SandboxProcess, warm = false): void {
    this.lent.delete(proc);
    const waiter = this.closed ? undefined : this.waiters.shift();
    if (waiter) waiter.resolve(proc);
    else if (this.closed || this.ready.length >= this.keptAtMost) proc.kill();
    else this.keep(proc, warm);
  }

  /**
   * Counts an interpreter being restored after an environment as one already coming back, so no
   * boot starts for a waiter it will serve (a restore takes milliseconds, a boot a second of CPU);
   * once `restored` settles it is given back, or a boot may start when it could not be restored.
   */
  async comingBack(restored: Promise<SandboxProcess | null>): Promise<void> {
    this.restoring += 1;
    const proc = await restored.catch(() => null);
    this.restoring -= 1;
    if (proc) this.giveBack(proc, true);
    else this.fill();
  }

  /** Starts the next spare at once, beside any already booting: a killed interpreter has just freed its core. */
  replaceKilled(): void {
    this.fill(1);
  }

  /** Kills every waiting interpreter and every one still booting, and boots no more. */
  close(): void {
    this.closed = true;
    this.stopBooting.abort();
    for (const proc of this.ready.splice(0)) proc.kill();
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('the sandbox runtime is closed'));
    for (const watcher of this.watchers.splice(0)) watcher.done();
  }

  private fill(extra = 0): void {
    while (!this.closed && this.wantsMore() && this.booting < this.atOnce() + extra) {
      this.booting += 1;
      this.spawn(this.stopBooting.signal).then(
        (proc) => this.booted(proc),
        (error: unknown) => {
          this.booting -= 1;
          // Nobody may be waiting yet: a watcher hears of it too, or whenReady would never settle.
          this.waiters.shift()?.reject(error);
          for (const watcher of this.watchers.splice(0)) watcher.fail(error);
          // Boots are queued behind each other: the next waiter's boot starts now (no retries for spares).
          if (this.waiters.length > 0) this.fill();
        },
      );
    }
  }

  // All of `bootsAtOnce` while a load or a caller of whenReady waits; one at a time for spares
  // nobody waits for yet, so they leave the other cores to the environments running.
  private atOnce(): number {
    return this.waiters.length > 0 || this.watchers.length > 0 ? this.bootsAtOnce : 1;
  }

  // Fewer than the spares and the waiters, or (once grown) fewer in all than were ever wanted at once.
  private wantsMore(): boolean {
    const coming = this.ready.length + this.booting + this.restoring;
    if (coming < this.target + this.waiters.length) return true;
    return this.grown && coming + this.lent.size < Math.min(this.mostWanted, this.keptAtMost);
  }

  // Notes `proc` as handed out until it is given back or dies.
  private lend(proc: SandboxProcess): SandboxProcess {
    this.lent.add(proc);
    if (!this.watched.has(proc)) {
      this.watched.add(proc);
      void proc.exited.then(() => {
        if (this.lent.delete(proc)) this.fill();
      });
    }
    return proc;
  }

  private booted(proc: SandboxProcess): void {
    this.booting -= 1;
    this.bootsDone += 1;
    this.giveBack(proc);
    // The next queued boot starts now that this one is done.
    this.fill();
  }

  private keep(proc: SandboxProcess, warm: boolean): void {
    if (warm) this.ready.unshift(proc);
    else this.ready.push(proc);
    void proc.exited.then(() => {
      const at = this.ready.indexOf(proc);
      if (at >= 0) this.ready.splice(at, 1);
      this.fill();
    });
    for (const watcher of this.watchers.filter((w) => this.ready.length >= w.count)) {
      this.watchers.splice(this.watchers.indexOf(watcher), 1);
      watcher.done();
    }
  }
}
