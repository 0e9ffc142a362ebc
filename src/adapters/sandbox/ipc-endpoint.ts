import type { Endpoint } from 'comlink';

/** Anything with Node's process-IPC shape: `send` plus `message` events (a ChildProcess or `process`). */
export interface IpcChannel {
  send?(message: unknown): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/** Adapts a Node IPC channel to comlink's Endpoint. */
export function ipcEndpoint(channel: IpcChannel): Endpoint {
  const wrapped = new Map<unknown, (message: unknown) => void>();
  return {
    postMessage(message: unknown) {
      channel.send?.(message);
    },
    addEventListener(_type: string, listener: unknown) {
      const forward = (data: unknown) => {
        if (typeof listener === 'function') listener({ data });
        else (listener as { handleEvent(e: unknown): void }).handleEvent({ data });
      };
      wrapped.set(listener, forward);
      channel.on('message', forward);
    },
    removeEventListener(_type: string, listener: unknown) {
      const forward = wrapped.get(listener);
      if (forward) channel.off('message', forward);
      wrapped.delete(listener);
    },
  } as Endpoint;
}
