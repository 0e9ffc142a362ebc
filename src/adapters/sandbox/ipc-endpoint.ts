import type { Endpoint } from 'comlink';

/** Anything with Node's process-IPC shape: `send` plus `message` events (a ChildProcess or `process`). */
export interface IpcChannel {
  send?(message: unknown, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

/**
 * Adapts a Node IPC channel to comlink's Endpoint. A send never throws or emits an unhandled
 * `error` (a closed channel would otherwise crash the sender): a failed send is handed to
 * `onSendFailure`, which should treat the other side as dead.
 */
export function ipcEndpoint(channel: IpcChannel, onSendFailure: (error: Error) => void = () => undefined): Endpoint {
  const wrapped = new Map<unknown, (message: unknown) => void>();
  return {
    postMessage(message: unknown) {
      try {
        channel.send?.(message, (error) => {
          if (error) onSendFailure(error);
        });
      } catch (error) {
        onSendFailure(error instanceof Error ? error : new Error(String(error)));
      }
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
