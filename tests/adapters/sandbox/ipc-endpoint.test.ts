import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ipcEndpoint, type IpcChannel } from '../../../src/adapters/sandbox/ipc-endpoint.ts';

function channel(send: NonNullable<IpcChannel['send']>): IpcChannel {
  return Object.assign(new EventEmitter(), { send });
}

describe('ipcEndpoint', () => {
  it('hands a send that fails asynchronously (a closed channel) to onSendFailure instead of throwing', async () => {
    const failures: string[] = [];
    const closed = channel((_message, callback) => {
      process.nextTick(() => callback?.(Object.assign(new Error('Channel closed'), { code: 'ERR_IPC_CHANNEL_CLOSED' })));
      return false;
    });
    ipcEndpoint(closed, (error) => failures.push(error.message)).postMessage({ id: 1 });
    await new Promise((done) => process.nextTick(done));
    expect(failures).toEqual(['Channel closed']);
  });

  it('hands a send that throws (an unserialisable message) to onSendFailure', () => {
    const failures: string[] = [];
    const throwing = channel(() => {
      throw new TypeError('cannot clone');
    });
    expect(() => ipcEndpoint(throwing, (error) => failures.push(error.message)).postMessage({ id: 1 })).not.toThrow();
    expect(failures).toEqual(['cannot clone']);
  });

  it('reports nothing for a send that succeeds, and forwards messages as events', () => {
    const failures: unknown[] = [];
    const sent: unknown[] = [];
    const ok = channel((message, callback) => {
      sent.push(message);
      callback?.(null);
      return true;
    });
    const endpoint = ipcEndpoint(ok, (error) => failures.push(error));
    const events: unknown[] = [];
    const listener = (event: unknown) => events.push(event);
    endpoint.addEventListener('message', listener as never);
    endpoint.postMessage({ id: 2 });
    (ok as unknown as EventEmitter).emit('message', { id: 3 });
    endpoint.removeEventListener('message', listener as never);
    (ok as unknown as EventEmitter).emit('message', { id: 4 });
    expect({ sent, events, failures }).toEqual({ sent: [{ id: 2 }], events: [{ data: { id: 3 } }], failures: [] });
  });
});
