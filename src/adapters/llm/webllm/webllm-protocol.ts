// The LLM worker speaks web-llm's own protocol (WorkerRequest / WorkerResponse, owned by
// WebWorkerMLCEngine and WebWorkerMLCEngineHandler). These are the few extra notices the
// worker entry adds; their kinds start with `spade:` so they never collide with web-llm's.

/** A notice from the LLM worker to the page, outside web-llm's request/response protocol. */
export type WorkerNotice =
  /** The worker evaluated its entry and the engine handler is listening. */
  | { kind: 'spade:ready' }
  /** A GPU device the worker created was lost for a reason other than being destroyed on purpose. */
  | { kind: 'spade:device-lost'; reason: string; message: string };

/** True for a {@link WorkerNotice} (anything else belongs to web-llm). */
export function isWorkerNotice(data: unknown): data is WorkerNotice {
  if (typeof data !== 'object' || data === null) return false;
  const kind = (data as { kind?: unknown }).kind;
  return kind === 'spade:ready' || kind === 'spade:device-lost';
}
