import type { ChildProcess } from 'node:child_process';
import { callOver, ipcLine, type MessageLine } from './call-channel.ts';
import type { HostReport, HostRequest } from './node-interpreter-host.ts';
import type { SandboxProcess } from './sandbox-process.ts';
import { SANDBOX_DATA_LIMIT_BYTES } from './process-fence.ts';

/** Interpreters one host process holds at most (each a worker thread with its own memory). */
export const INTERPRETERS_PER_HOST = 8;

/** Memory cap (RLIMIT_DATA) of a host process: the per-interpreter budget for each of its interpreters and one for itself. */
export const HOST_DATA_LIMIT_BYTES = (INTERPRETERS_PER_HOST + 1) * SANDBOX_DATA_LIMIT_BYTES;

/** How long an interpreter (or a host process) may take to start before it is given up. */
export const START_TIMEOUT_MS = 60_000;

/** A started host process as the parent sees it: its IPC child, why it stopped, and how to kill it. */
export interface LaunchedHost {
  child: ChildProcess;
  exited: Promise<string>;
  lost(why: string): void;
}

/** A start failed because its host process stopped or could not start, not because of the interpreter it was starting. */
export class HostLostError extends Error {
  override readonly name = 'HostLostError';
}

interface Tenant {
  listeners: Set<(message: unknown) => void>;
  started(): void;
  /** `hostLost`: the whole host stopped, not this interpreter's thread. */
  died(reason: string, hostLost?: boolean): void;
}

/**
 * The parent's side of one fenced host process and the interpreter threads in it: starts an
 * interpreter as a `SandboxProcess`, routes its calls, and reports its death (its thread's, or
 * the whole host's). A host with no interpreter left is killed, so nothing lingers.
 */
export class InterpreterHost {
  private readonly tenants = new Map<number, Tenant>();
  private readonly line: MessageLine;
  private nextId = 0;
  private stopped = false;

  private constructor(private readonly launched: LaunchedHost) {
    this.line = ipcLine(launched.child, (error) => launched.lost(`a send failed: ${error.message}`));
    this.line.listen((report) => this.receive(report as HostReport));
    void launched.exited.then((reason) => {
      this.stopped = true;
      for (const tenant of [...this.tenants.values()]) tenant.died(`its host process stopped (${reason})`, true);
    });
  }

  /** Resolves once the launched host has compiled Pyodide and takes starts; rejects when it stops or takes too long. */
  static ready(launched: LaunchedHost): Promise<InterpreterHost> {
    return new Promise((resolve, reject) => {
      let done = false;
      const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
      const onMessage = (message: unknown) => {
        if ((message as { hostReady?: boolean } | null)?.hostReady !== true) return;
        cleanup();
        resolve(new InterpreterHost(launched));
      };
      const cleanup = () => {
        done = true;
        clearTimeout(timer);
        launched.child.off('message', onMessage);
      };
      // Once ready (or given up), a later stop is the host's own business, not a failed start.
      function fail(reason: string) {
        if (done) return;
        cleanup();
        launched.lost(reason);
        reject(new HostLostError(`Python sandbox host ${reason}`));
      }
      void launched.exited.then((reason) => fail(`stopped during start (${reason})`));
      launched.child.on('message', onMessage);
    });
  }

  /** Interpreters it holds or is starting. */
  get load(): number {
    return this.tenants.size;
  }

  /** Whether it has stopped (or was stopped because it held no interpreter): it takes no more starts. */
  get gone(): boolean {
    return this.stopped;
  }

  /** Starts one interpreter thread (restored from the host's snapshot unless `cold`); rejects when it cannot start. */
  start(cold: boolean, signal?: AbortSignal): Promise<SandboxProcess> {
    const id = this.nextId++;
    const listeners = new Set<(message: unknown) => void>();
    let settleExit!: (reason: string) => void;
    const exited = new Promise<string>((resolve) => (settleExit = resolve));
    const kill = () => {
      if (!this.tenants.has(id)) return;
      this.line.post({ kill: id } satisfies HostRequest);
      this.tenants.get(id)?.died('killed');
    };
    const proc: SandboxProcess = {
      call: callOver({
        post: (message) => this.line.post({ to: id, message } satisfies HostRequest),
        listen: (listener) => listeners.add(listener),
      }),
      kill,
      exited,
    };
    return new Promise((resolve, reject) => {
      let starting = true;
      // Rejected before the kill, so the start says it timed out rather than that it was killed.
      const timer = setTimeout(() => {
        reject(new Error(`Python sandbox did not start within ${START_TIMEOUT_MS} ms`));
        kill();
      }, START_TIMEOUT_MS);
      const abort = () => kill();
      const settled = () => {
        starting = false;
        clearTimeout(timer);
        signal?.removeEventListener('abort', abort);
      };
      this.tenants.set(id, {
        listeners,
        started: () => {
          settled();
          resolve(proc);
        },
        died: (reason, hostLost = false) => {
          this.tenants.delete(id);
          settleExit(reason);
          if (starting) {
            settled();
            const message = `Python sandbox stopped during start (${reason})`;
            reject(hostLost ? new HostLostError(message) : new Error(message));
          }
          if (this.tenants.size === 0) this.stop('it holds no interpreter');
        },
      });
      if (this.stopped) return this.tenants.get(id)?.died('its host process had stopped', true);
      signal?.addEventListener('abort', abort, { once: true });
      if (signal?.aborted) return kill();
      this.line.post({ start: id, cold } satisfies HostRequest);
    });
  }

  private stop(why: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.launched.lost(why);
  }

  private receive(report: HostReport): void {
    if (typeof report !== 'object' || report === null) return;
    if ('ready' in report) this.tenants.get(report.ready)?.started();
    else if ('died' in report) this.tenants.get(report.died)?.died(String(report.reason));
    else if ('from' in report)
      for (const listener of this.tenants.get(report.from)?.listeners ?? []) listener(report.message);
  }
}

interface Slot {
  launched: LaunchedHost;
  host: Promise<InterpreterHost>;
  live: InterpreterHost | null;
  failed: boolean;
  claims: number;
}

/**
 * The host processes of one kind (one snapshot, or cold starts): each start goes to a running
 * host with room, else to a newly launched one, so at most `INTERPRETERS_PER_HOST` interpreters
 * share a process; hosts that stopped are dropped, and a host still launching that every start
 * waiting for it gave up on is stopped.
 */
export class HostFleet {
  private slots: Slot[] = [];

  constructor(private readonly launch: () => LaunchedHost) {}

  /** Starts one interpreter on a host with room (launching one when none has); rejects at once when `signal` aborts. */
  start(cold: boolean, signal?: AbortSignal): Promise<SandboxProcess> {
    return this.startOnce(cold, signal, true);
  }

  private async startOnce(cold: boolean, signal: AbortSignal | undefined, retry: boolean): Promise<SandboxProcess> {
    if (signal?.aborted) throw abortedStart();
    const slot = this.claim();
    let host: InterpreterHost;
    try {
      host = await untilAborted(slot.host, signal);
    } catch (error) {
      slot.claims -= 1;
      if (signal?.aborted) this.dropUnwanted(slot);
      throw error;
    }
    slot.claims -= 1;
    // The host's last interpreter may have been killed while this start waited: it stopped, so go elsewhere once.
    if (host.gone && retry) return this.startOnce(cold, signal, false);
    return host.start(cold, signal);
  }

  // Picks a slot synchronously, so concurrent starts never overfill a host.
  private claim(): Slot {
    this.slots = this.slots.filter((slot) => !slot.failed && !slot.live?.gone);
    const roomy = this.slots.find((slot) => (slot.live?.load ?? 0) + slot.claims < INTERPRETERS_PER_HOST);
    const slot = roomy ?? this.launchSlot();
    slot.claims += 1;
    return slot;
  }

  private launchSlot(): Slot {
    const launched = this.launch();
    const slot: Slot = { launched, host: InterpreterHost.ready(launched), live: null, failed: false, claims: 0 };
    slot.host.then(
      (host) => (slot.live = host),
      () => (slot.failed = true),
    );
    this.slots.push(slot);
    return slot;
  }

  // Stops a host still launching that no start waits for any more (every one was aborted).
  private dropUnwanted(slot: Slot): void {
    if (slot.live || slot.claims > 0 || slot.failed) return;
    slot.failed = true;
    slot.launched.lost('every start waiting for it was aborted');
  }
}

function abortedStart(): Error {
  return new Error('Python sandbox start was aborted');
}

// `promise`, or a rejection as soon as `signal` aborts.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(abortedStart());
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
