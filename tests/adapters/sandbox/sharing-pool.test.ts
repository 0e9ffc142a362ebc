// The sharing pool's bookkeeping over stand-in interpreters that answer the memory requests as the
// worker's service does (one environment in memory at a time, a new one only into sealed memory).
// The real parking is tested on the real sandbox in node-sandbox-sharing.test.ts.
import { describe, expect, it } from 'vitest';
import { InterpreterPool } from '../../../src/adapters/sandbox/interpreter-pool.ts';
import type { SandboxProcess } from '../../../src/adapters/sandbox/sandbox-process.ts';
import { RECYCLE_REQUEST } from '../../../src/adapters/sandbox/sandbox-service.ts';
import { SharingPool } from '../../../src/adapters/sandbox/sharing-pool.ts';

// A stand-in interpreter: refuses to let an environment into memory another one holds, as the service does.
function standIn(refusals: string[]): SandboxProcess {
  let sealed = true;
  let nextSlot = 1;
  return {
    exited: new Promise<string>(() => undefined),
    kill: () => undefined,
    call: async (request: string) => {
      await Promise.resolve();
      if (request === RECYCLE_REQUEST) {
        sealed = true;
        return '{"ok":true}';
      }
      const body = JSON.parse(request) as { op: string; park?: boolean };
      if (body.op === 'switch') {
        const parked = body.park ? nextSlot++ : null;
        if (body.park) sealed = true;
        if (!sealed) {
          refusals.push(request);
          return JSON.stringify({ ok: false, why: 'another environment is in the memory', parked });
        }
        sealed = false;
        return JSON.stringify({ ok: true, parked });
      }
      if (body.op === 'drop') return '{"ok":true}';
      return '{"ok":true,"value":1}';
    },
  };
}

describe('SharingPool', () => {
  it('places a new tenant on the interpreter whose last tenant just left, and never lends an interpreter twice', async () => {
    const refusals: string[] = [];
    const pool = new InterpreterPool(async () => standIn(refusals), 1);
    // One interpreter in use at most while a spare waits, so a new tenant shares rather than take it.
    const sharing = new SharingPool(pool, 8, 1);
    const first = await sharing.take();
    await pool.whenReady(1);
    // Its only tenant gives its share up unused, and a new one is placed in the same turn.
    sharing.giveBack(first);
    const second = await sharing.take();
    await second.call('{"op":"reset"}');
    const third = await sharing.take();
    await Promise.all([third.call('{"op":"reset"}'), second.call('{"op":"step"}')]);
    expect(refusals).toEqual([]);
    sharing.close();
  });
});
