import type { PyodideAPI } from 'pyodide';

/** What a sandbox worker exposes to its owner: one JSON call, nothing else. */
export interface SandboxService {
  /** Runs one harness request (JSON text) and returns the reply (JSON text). */
  call(request: string): string;
}

/** Characters a reply may have before the worker refuses to send it. */
export function replyLimitFor(maxObservationChars: number): number {
  return maxObservationChars * 12 + 65_536;
}

/** Installs the harness into a loaded Pyodide and returns the service the worker exposes. */
export function createSandboxService(pyodide: PyodideAPI, harnessSource: string): SandboxService {
  pyodide.runPython(harnessSource);
  const entry = pyodide.globals.get('spade_harness_call') as (request: string) => unknown;
  return {
    call(request: string): string {
      const limit = replyLimitFor(readMaxChars(request));
      const reply = entry(request);
      if (typeof reply !== 'string') {
        return JSON.stringify({ ok: false, error: 'exception', type: 'HarnessError', msg: 'harness returned a non-string' });
      }
      if (reply.length > limit) {
        return JSON.stringify({ ok: false, error: 'too_large', what: 'reply', size: reply.length, limit });
      }
      return reply;
    },
  };
}

function readMaxChars(request: string): number {
  try {
    const value = (JSON.parse(request) as { maxChars?: unknown }).maxChars;
    return typeof value === 'number' && value > 0 ? value : 100_000;
  } catch {
    return 100_000;
  }
}
