import { errorMessage } from '../../core/error-message.ts';
// The sandbox's own wire protocol, the same over Node IPC and a browser MessagePort: the host
// sends [id, request text]; the sandbox answers [id, reply text] or, when its service threw,
// [id, null, error message]. Nothing else is sent or exposed: a step is one small message each
// way, with none of a general RPC layer's proxies, paths or wire-value wrapping.

/** One end of a message channel, as the call protocol sees it. */
export interface MessageLine {
  /** Sends one message; never throws (a failed send is the owner's to report). */
  post(message: unknown): void;
  /** Calls `listener` with every message that arrives from now on. */
  listen(listener: (message: unknown) => void): void;
}

/** Anything with Node's process-IPC shape: `send` plus `message` events (a ChildProcess or `process`). */
export interface IpcChannel {
  send?(message: unknown, callback?: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

/**
 * A Node IPC channel as a MessageLine. A send never throws or emits an unhandled `error` (a closed
 * channel would otherwise crash the sender): a failed send is handed to `onSendFailure`, which
 * should treat the other side as dead.
 */
export function ipcLine(channel: IpcChannel, onSendFailure: (error: Error) => void = () => undefined): MessageLine {
  return {
    post(message) {
      try {
        channel.send?.(message, (error) => {
          if (error) onSendFailure(error);
        });
      } catch (error) {
        onSendFailure(error instanceof Error ? error : new Error(String(error)));
      }
    },
    listen(listener) {
      channel.on('message', listener);
    },
  };
}

/** A MessagePort (or a worker's global scope) as a MessageLine; listening starts the port. */
export function portLine(
  port: Pick<MessagePort, 'postMessage' | 'addEventListener'> & { start?(): void },
): MessageLine {
  return {
    post(message) {
      try {
        port.postMessage(message);
      } catch {
        // A closed or detached port: the owner learns of the death through its own watch.
      }
    },
    listen(listener) {
      port.addEventListener('message', (event) => listener((event as MessageEvent).data));
      port.start?.();
    },
  };
}

/**
 * The host's side: a function that sends one request and resolves with whatever the sandbox
 * answered to it (unchecked: the caller parses it), or rejects with the message of an error the
 * sandbox's service threw. Messages that are not an answer to a waiting call are ignored.
 */
export function callOver(line: MessageLine): (request: string) => Promise<unknown> {
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 0;
  line.listen((message) => {
    if (!Array.isArray(message) || typeof message[0] !== 'number') return;
    const call = waiting.get(message[0]);
    if (!call) return;
    waiting.delete(message[0]);
    // The error text is read only when it is a string: anything else could be built to be costly (or recursive) to print.
    if (message[1] === null && message.length > 2)
      call.reject(
        new Error(
          typeof message[2] === 'string'
            ? message[2].slice(0, 2000)
            : 'the sandbox reported an error without a message',
        ),
      );
    else call.resolve(message[1]);
  });
  return (request) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      line.post([id, request]);
    });
}

/** The sandbox's side: answers every well-formed request with `handle`'s reply; anything else is ignored. */
export function answerCalls(line: MessageLine, handle: (request: string) => string): void {
  line.listen((message) => {
    if (
      !Array.isArray(message) ||
      message.length !== 2 ||
      typeof message[0] !== 'number' ||
      typeof message[1] !== 'string'
    )
      return;
    let answer: unknown[];
    try {
      answer = [message[0], handle(message[1])];
    } catch (error) {
      answer = [message[0], null, errorMessage(error)];
    }
    line.post(answer);
  });
}
