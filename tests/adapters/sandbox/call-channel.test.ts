import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  answerCalls,
  callOver,
  ipcLine,
  portLine,
  type IpcChannel,
  type MessageLine,
} from '../../../src/adapters/sandbox/call-channel.ts';

function channel(send: NonNullable<IpcChannel['send']>): IpcChannel & EventEmitter {
  return Object.assign(new EventEmitter(), { send });
}

/** Two connected in-memory lines: what one posts, the other hears (asynchronously, as a real channel delivers). */
function linePair(): [MessageLine, MessageLine] {
  const ears: [((m: unknown) => void)[], ((m: unknown) => void)[]] = [[], []];
  const end = (mine: number): MessageLine => ({
    post: (message) => queueMicrotask(() => ears[1 - mine]!.forEach((hear) => hear(structuredClone(message)))),
    listen: (listener) => void ears[mine]!.push(listener),
  });
  return [end(0), end(1)];
}

const settledWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then((value) => ({ value })), new Promise((done) => setTimeout(() => done('pending'), ms))]);

describe('ipcLine', () => {
  it('hands a send that fails asynchronously (a closed channel) to onSendFailure instead of throwing', async () => {
    const failures: string[] = [];
    const closed = channel((_message, callback) => {
      process.nextTick(() =>
        callback?.(Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' })),
      );
      return false;
    });
    ipcLine(closed, (error) => failures.push(error.message)).post([1, '{}']);
    await new Promise((done) => process.nextTick(done));
    expect(failures).toEqual(['Channel closed']);
  });

  it('hands a send that throws (an unserialisable message) to onSendFailure', () => {
    const failures: string[] = [];
    const throwing = channel(() => {
      throw new TypeError('cannot clone');
    });
    expect(() => ipcLine(throwing, (error) => failures.push(error.message)).post([1, '{}'])).not.toThrow();
    expect(failures).toEqual(['cannot clone']);
  });

  it('reports nothing for a send that succeeds, and hands on every message', () => {
    const failures: unknown[] = [];
    const sent: unknown[] = [];
    const ok = channel((message, callback) => {
      sent.push(message);
      callback?.(null);
      return true;
    });
    const line = ipcLine(ok, (error) => failures.push(error));
    const heard: unknown[] = [];
    line.listen((message) => heard.push(message));
    line.post([2, 'a']);
    ok.emit('message', [3, 'b']);
    expect({ sent, heard, failures }).toEqual({ sent: [[2, 'a']], heard: [[3, 'b']], failures: [] });
  });
});

describe('portLine', () => {
  it('carries messages over a real MessageChannel and never throws on a closed port', async () => {
    const { port1, port2 } = new MessageChannel();
    const heard = new Promise((done) => portLine(port2).listen(done));
    portLine(port1).post([7, 'hello']);
    await expect(heard).resolves.toEqual([7, 'hello']);
    port1.close();
    expect(() => portLine(port1).post([8, 'late'])).not.toThrow();
    port2.close();
  });
});

describe('the call protocol', () => {
  it('answers each request with its own reply, in any order of arrival', async () => {
    const [host, sandbox] = linePair();
    answerCalls(sandbox, (request) => `echo:${request}`);
    const call = callOver(host);
    await expect(Promise.all([call('a'), call('b'), call('c')])).resolves.toEqual(['echo:a', 'echo:b', 'echo:c']);
  });

  it('rejects with the message of an error the service threw (os._exit surfaces this way)', async () => {
    const [host, sandbox] = linePair();
    answerCalls(sandbox, () => {
      throw new Error('Program terminated with exit(3)');
    });
    await expect(callOver(host)('{}')).rejects.toThrow('Program terminated with exit(3)');
  });

  it('rejects with the text of a thrown non-Error value', async () => {
    const [host, sandbox] = linePair();
    answerCalls(sandbox, () => {
      throw 'plain text';
    });
    await expect(callOver(host)('{}')).rejects.toThrow('plain text');
  });

  it('the sandbox ignores anything but [number, string] and runs nothing for it', async () => {
    const [host, sandbox] = linePair();
    const handled: string[] = [];
    answerCalls(sandbox, (request) => (handled.push(request), 'ok'));
    const heard: unknown[] = [];
    host.listen((message) => heard.push(message));
    for (const bad of [null, 'text', { id: 1 }, [1], ['1', 'x'], [1, 2], [1, 'x', 'extra'], [1, { op: 'step' }]])
      host.post(bad);
    host.post([5, 'fine']);
    await new Promise((done) => setTimeout(done, 10));
    expect({ handled, heard }).toEqual({ handled: ['fine'], heard: [[5, 'ok']] });
  });

  it('the host ignores a hostile sandbox: unknown ids, wrong shapes and replayed answers settle nothing', async () => {
    const [host, sandbox] = linePair();
    const call = callOver(host);
    const first = call('first');
    for (const forged of [[99, 'forged'], ['0', 'forged'], { 0: 0, 1: 'forged' }, null, 'text']) sandbox.post(forged);
    expect(await settledWithin(first, 20)).toBe('pending');
    sandbox.post([0, 'real']);
    await expect(first).resolves.toBe('real');
    sandbox.post([0, 'replayed']);
    const second = call('second');
    expect(await settledWithin(second, 20)).toBe('pending');
    sandbox.post([1, { not: 'text' }]);
    // The reply's content is the caller's to check (parseHarnessReply); the protocol only pairs it.
    await expect(second).resolves.toEqual({ not: 'text' });
  });

  it('caps the error text a sandbox can push into the host', async () => {
    const [host, sandbox] = linePair();
    const call = callOver(host)('x');
    sandbox.post([0, null, 'e'.repeat(100_000)]);
    const error = await call.catch((e: unknown) => e as Error);
    expect((error as Error).message.length).toBe(2000);
  });

  it('never prints an error value that is not a string (a list or object could be built to be costly to print)', async () => {
    const [host, sandbox] = linePair();
    const call = callOver(host);
    const calls = [call('x'), call('y')];
    sandbox.post([0, null, [[['deep']]]]);
    sandbox.post([1, null, { toString: 'not a function' }]);
    for (const call of calls) await expect(call).rejects.toThrow('the sandbox reported an error without a message');
  });
});
