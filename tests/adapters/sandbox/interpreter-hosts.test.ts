// The parent's side of the Node sandbox's host processes, against fake hosts: which host a start
// goes to, how calls and replies are routed by interpreter id, and whose death settles what.
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostReport, HostRequest } from '../../../src/adapters/sandbox/node-interpreter-host.ts';
import {
  HostFleet,
  HostLostError,
  INTERPRETERS_PER_HOST,
  START_TIMEOUT_MS,
  type LaunchedHost,
} from '../../../src/adapters/sandbox/node-interpreter-hosts.ts';
import type { SandboxProcess } from '../../../src/adapters/sandbox/sandbox-process.ts';

// A host process as the parent sees it: records what it is sent and whether it was lost; the test
// says when it is ready, what its threads report, and when it stops.
class FakeHost {
  readonly sent: HostRequest[] = [];
  readonly lostWhy: string[] = [];
  readonly child = Object.assign(new EventEmitter(), {
    send: (message: unknown, callback?: (error: Error | null) => void) => {
      this.sent.push(message as HostRequest);
      callback?.(this.sendError);
      return true;
    },
  });
  sendError: Error | null = null;
  private settle!: (reason: string) => void;
  readonly launched: LaunchedHost = {
    child: this.child as unknown as ChildProcess,
    exited: new Promise<string>((resolve) => (this.settle = resolve)),
    lost: (why) => {
      this.lostWhy.push(why);
      this.stop(`killed: ${why}`);
    },
  };

  constructor(private readonly autoReady: boolean) {}

  /** Reports `message` to the parent. */
  report(message: HostReport | unknown): void {
    this.child.emit('message', message);
  }

  /** The host process ends. */
  stop(reason: string): void {
    this.settle(reason);
  }

  /** Interpreter ids the parent asked this host to start. */
  get starts(): number[] {
    return this.sent.flatMap((request) => ('start' in request ? [request.start] : []));
  }

  /** Interpreter ids the parent asked this host to kill. */
  get kills(): number[] {
    return this.sent.flatMap((request) => ('kill' in request ? [request.kill] : []));
  }

  /** Answers every start so far that has not been answered with ready. */
  readyAll(): void {
    for (const id of this.starts.filter((id) => !this.answered.has(id))) {
      this.answered.add(id);
      this.report({ ready: id });
    }
  }

  readonly answered = new Set<number>();

  /** Sends ready for the host itself (after Pyodide's compile) and, when `autoReady`, for every start after. */
  hostReady(): void {
    this.report({ hostReady: true });
    if (!this.autoReady) return;
    const send = this.child.send;
    this.child.send = (message, callback) => {
      const done = send(message, callback);
      if ('start' in (message as HostRequest)) queueMicrotask(() => this.readyAll());
      return done;
    };
  }
}

// A fleet over fake hosts, each ready as soon as it is launched unless `manual`.
function fleetOfFakes(options: { manual?: boolean; autoReady?: boolean } = {}) {
  const hosts: FakeHost[] = [];
  const fleet = new HostFleet(() => {
    const host = new FakeHost(options.autoReady ?? true);
    hosts.push(host);
    if (!options.manual) queueMicrotask(() => host.hostReady());
    return host.launched;
  });
  return { fleet, hosts };
}

const flush = () => new Promise((done) => setTimeout(done, 0));

// 'pending' while `promise` has not settled after the queued work ran, else how it settled.
async function state(promise: Promise<unknown>): Promise<string> {
  const settled = promise.then(
    (value) => `resolved ${String(value)}`,
    (error: unknown) => `rejected ${(error as Error).message}`,
  );
  await flush();
  return Promise.race([settled, Promise.resolve('pending')]);
}

function startMany(fleet: HostFleet, count: number, signal?: AbortSignal): Promise<SandboxProcess>[] {
  return Array.from({ length: count }, () => fleet.start(false, signal));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('HostFleet: which host a start goes to', () => {
  it(`a ${INTERPRETERS_PER_HOST + 1}th concurrent start launches a second host; neither holds more than ${INTERPRETERS_PER_HOST}`, async () => {
    const { fleet, hosts } = fleetOfFakes();
    const procs = await Promise.all(startMany(fleet, INTERPRETERS_PER_HOST + 1));
    expect(procs).toHaveLength(INTERPRETERS_PER_HOST + 1);
    expect(hosts.map((host) => host.starts.length)).toEqual([INTERPRETERS_PER_HOST, 1]);
  });

  it('claims are synchronous: starts made while no host is ready yet still fill hosts in eights', async () => {
    const { fleet, hosts } = fleetOfFakes({ manual: true });
    const starts = startMany(fleet, 2 * INTERPRETERS_PER_HOST + 1);
    expect(hosts).toHaveLength(3);
    for (const host of hosts) host.hostReady();
    await Promise.all(starts);
    expect(hosts.map((host) => host.starts.length)).toEqual([INTERPRETERS_PER_HOST, INTERPRETERS_PER_HOST, 1]);
  });

  it('a start after a full host freed a place goes to that host, not a new one', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const procs = await Promise.all(startMany(fleet, INTERPRETERS_PER_HOST));
    procs[3]!.kill();
    await fleet.start(false);
    expect(hosts).toHaveLength(1);
    expect(hosts[0]!.starts).toHaveLength(INTERPRETERS_PER_HOST + 1);
    expect(hosts[0]!.kills).toEqual([hosts[0]!.starts[3]]);
  });

  it('a start tells the host whether to start cold', async () => {
    const { fleet, hosts } = fleetOfFakes();
    await fleet.start(true);
    await fleet.start(false);
    expect(hosts[0]!.sent.filter((request) => 'start' in request)).toEqual([
      { start: 0, cold: true },
      { start: 1, cold: false },
    ]);
  });
});

describe('InterpreterHost: routing by interpreter id', () => {
  it("a call goes to its own interpreter and only that interpreter's reply answers it", async () => {
    const { fleet, hosts } = fleetOfFakes();
    const [a, b] = await Promise.all(startMany(fleet, 2));
    const host = hosts[0]!;
    const [idA, idB] = host.starts as [number, number];
    const callA = a!.call('to a');
    const callB = b!.call('to b');
    // Both calls are the first of their interpreter, so both have call id 0 on the wire.
    expect(host.sent.filter((request) => 'to' in request)).toEqual([
      { to: idA, message: [0, 'to a'] },
      { to: idB, message: [0, 'to b'] },
    ]);
    host.report({ from: idB, message: [0, 'from b'] });
    expect(await state(callA)).toBe('pending');
    expect(await callB).toBe('from b');
    host.report({ from: idA, message: [0, 'from a'] });
    expect(await callA).toBe('from a');
  });

  it('reports for unknown interpreters and malformed reports are ignored', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const proc = await fleet.start(false);
    const host = hosts[0]!;
    const call = proc.call('x');
    for (const junk of [null, 7, 'text', [], {}, { from: 99, message: [0, 'stray'] }, { died: 99, reason: 'x' }])
      host.report(junk);
    host.report({ ready: 99 });
    expect(await state(call)).toBe('pending');
    expect(await state(proc.exited)).toBe('pending');
    host.report({ from: host.starts[0], message: [0, 'ok'] });
    expect(await call).toBe('ok');
  });
});

describe('InterpreterHost: deaths', () => {
  it("a thread's death settles only its own interpreter's exited; its siblings answer on", async () => {
    const { fleet, hosts } = fleetOfFakes();
    const [a, b] = await Promise.all(startMany(fleet, 2));
    const host = hosts[0]!;
    const [idA, idB] = host.starts as [number, number];
    host.report({ died: idA, reason: 'its thread ended with code 1' });
    expect(await a!.exited).toBe('its thread ended with code 1');
    expect(await state(b!.exited)).toBe('pending');
    const call = b!.call('still there?');
    host.report({ from: idB, message: [0, 'yes'] });
    expect(await call).toBe('yes');
    expect(host.lostWhy).toEqual([]);
  });

  it('a thread that dies while starting rejects its own start only', async () => {
    const { fleet, hosts } = fleetOfFakes({ autoReady: false });
    const [a, b] = startMany(fleet, 2);
    await flush();
    const host = hosts[0]!;
    const [idA, idB] = host.starts as [number, number];
    host.report({ died: idA, reason: 'a failed restore' });
    await expect(a!).rejects.toThrow(/stopped during start \(a failed restore\)/);
    // The interpreter's own failure (maybe its snapshot's), not its host's.
    await expect(a!).rejects.not.toBeInstanceOf(HostLostError);
    expect(await state(b!)).toBe('pending');
    host.report({ ready: idB });
    expect(await state(b!)).toMatch(/^resolved/);
  });

  it("the host's death settles every interpreter in it and rejects those starting; the next start launches a fresh host", async () => {
    const { fleet, hosts } = fleetOfFakes({ autoReady: false });
    const starts = startMany(fleet, 3);
    await flush();
    const host = hosts[0]!;
    host.report({ ready: host.starts[0] });
    host.report({ ready: host.starts[1] });
    const [a, b] = (await Promise.all(starts.slice(0, 2))) as [SandboxProcess, SandboxProcess];
    host.stop('exit code null, signal SIGKILL');
    expect(await a.exited).toMatch(/its host process stopped \(exit code null, signal SIGKILL\)/);
    expect(await b.exited).toMatch(/its host process stopped/);
    await expect(starts[2]!).rejects.toThrow(/stopped during start/);
    // Not the snapshot's fault: spawnNodeSandbox retries it as it was, without counting it against the snapshot.
    await expect(starts[2]!).rejects.toBeInstanceOf(HostLostError);
    const next = fleet.start(false);
    await flush();
    expect(hosts).toHaveLength(2);
    hosts[1]!.readyAll();
    expect(await state(next)).toMatch(/^resolved/);
  });

  it('a host that stops before it is ready rejects every start waiting for it, and the next start launches another', async () => {
    const { fleet, hosts } = fleetOfFakes({ manual: true });
    const starts = startMany(fleet, 2);
    hosts[0]!.stop('exit code 1, signal null: out of memory');
    for (const start of starts) {
      await expect(start).rejects.toThrow(/host stopped during start \(exit code 1/);
      await expect(start).rejects.toBeInstanceOf(HostLostError);
    }
    void fleet.start(false).catch(() => undefined);
    expect(hosts).toHaveLength(2);
  });

  it('a host whose last interpreter was killed is stopped, and the next start launches a new one', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const [a, b] = await Promise.all(startMany(fleet, 2));
    a!.kill();
    expect(hosts[0]!.lostWhy).toEqual([]);
    b!.kill();
    expect(hosts[0]!.lostWhy).toEqual(['it holds no interpreter']);
    expect(hosts[0]!.kills).toEqual(hosts[0]!.starts);
    expect(await a!.exited).toBe('killed');
    await fleet.start(false);
    expect(hosts).toHaveLength(2);
  });

  it('killing twice sends one kill and does nothing else', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const [a] = await Promise.all(startMany(fleet, 2));
    a!.kill();
    a!.kill();
    expect(hosts[0]!.kills).toHaveLength(1);
  });

  it('a start claimed on a host whose last interpreter is killed in the same tick still starts', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const only = await fleet.start(false);
    const next = fleet.start(false);
    only.kill();
    expect(await state(next)).toMatch(/^resolved/);
    expect(hosts.at(-1)!.lostWhy).toEqual([]);
  });

  it('a failed send counts as the host lost', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const proc = await fleet.start(false);
    hosts[0]!.sendError = new Error('channel closed');
    void proc.call('x').catch(() => undefined);
    expect(hosts[0]!.lostWhy).toEqual(['a send failed: channel closed']);
    expect(await proc.exited).toMatch(/its host process stopped/);
  });
});

describe('InterpreterHost: aborts and timeouts', () => {
  it('an abort kills an interpreter still starting and rejects its start; an empty host is stopped', async () => {
    const { fleet, hosts } = fleetOfFakes({ autoReady: false });
    const controller = new AbortController();
    const start = fleet.start(false, controller.signal);
    await flush();
    controller.abort();
    await expect(start).rejects.toThrow(/stopped during start \(killed\)/);
    expect(hosts[0]!.kills).toEqual(hosts[0]!.starts);
    expect(hosts[0]!.lostWhy).toEqual(['it holds no interpreter']);
  });

  it('a start with an aborted signal launches nothing and rejects', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const controller = new AbortController();
    controller.abort();
    await expect(fleet.start(false, controller.signal)).rejects.toThrow('Python sandbox start was aborted');
    expect(hosts).toEqual([]);
  });

  it('an abort while the host is still launching rejects at once and stops the host nobody else waits for', async () => {
    const { fleet, hosts } = fleetOfFakes({ manual: true });
    const controller = new AbortController();
    const start = fleet.start(false, controller.signal);
    controller.abort();
    expect(await state(start)).toBe('rejected Python sandbox start was aborted');
    expect(hosts[0]!.lostWhy[0]).toBe('every start waiting for it was aborted');
    void fleet.start(false).catch(() => undefined);
    expect(hosts).toHaveLength(2);
  });

  it('an abort while the host is launching leaves it to the other starts waiting for it', async () => {
    const { fleet, hosts } = fleetOfFakes({ manual: true });
    const controller = new AbortController();
    const aborted = fleet.start(false, controller.signal);
    const other = fleet.start(false);
    controller.abort();
    expect(await state(aborted)).toMatch(/^rejected/);
    expect(hosts[0]!.lostWhy).toEqual([]);
    hosts[0]!.hostReady();
    expect(await state(other)).toMatch(/^resolved/);
    expect(hosts[0]!.starts).toHaveLength(1);
  });

  it('an abort after the start has no effect on the interpreter', async () => {
    const { fleet, hosts } = fleetOfFakes();
    const controller = new AbortController();
    const proc = await fleet.start(false, controller.signal);
    controller.abort();
    expect(hosts[0]!.kills).toEqual([]);
    expect(await state(proc.exited)).toBe('pending');
  });

  it(`an interpreter not ready within ${START_TIMEOUT_MS} ms is killed and its start says it timed out`, async () => {
    vi.useFakeTimers();
    const { fleet, hosts } = fleetOfFakes({ autoReady: false });
    const start = fleet.start(false);
    const outcome = start.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(START_TIMEOUT_MS - 1);
    expect(hosts[0]!.kills).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe(`Python sandbox did not start within ${START_TIMEOUT_MS} ms`);
    expect(hosts[0]!.kills).toEqual(hosts[0]!.starts);
  });

  it(`a host not ready within ${START_TIMEOUT_MS} ms is lost and the starts waiting for it reject`, async () => {
    vi.useFakeTimers();
    const { fleet, hosts } = fleetOfFakes({ manual: true });
    const outcome = fleet.start(false).then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await vi.advanceTimersByTimeAsync(START_TIMEOUT_MS);
    expect(await outcome).toBe(`Python sandbox host did not start within ${START_TIMEOUT_MS} ms`);
    expect(hosts[0]!.lostWhy).toEqual([`did not start within ${START_TIMEOUT_MS} ms`]);
  });
});
