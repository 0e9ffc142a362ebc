// The Node sandbox child's own flags, against JavaScript that already runs inside it. (Python
// cannot reach JavaScript at all any more: node-sandbox-cutoff.test.ts.)
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pyodideDirectory, sandboxExecArgv } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';

const tmpFile = join(tmpdir(), `spade-escape-${process.pid}-${Date.now()}.txt`);

describe('the sandbox process flags themselves, against JavaScript that already runs inside', () => {
  it('deny host files, subprocesses and code generation, also to the worker threads that hold the interpreters', () => {
    const dir = tempDir('spade-flags-');
    const script = join(dir, 'attack.mjs');
    writeFileSync(
      script,
      `
      import * as fs from 'node:fs';
      import * as cp from 'node:child_process';
      import { isMainThread, parentPort, Worker } from 'node:worker_threads';
      const out = {};
      const attempt = (name, run) => { try { run(); out[name] = 'ALLOWED'; } catch (e) { out[name] = e.code ?? e.name; } };
      attempt('read', () => fs.readFileSync('/etc/passwd'));
      attempt('write', () => fs.writeFileSync(${JSON.stringify(tmpFile)}, 'x'));
      attempt('spawn', () => cp.spawnSync('id'));
      attempt('eval', () => eval('1 + 1'));
      attempt('function', () => new Function('return 1')());
      // The same attempts from a worker thread (the permission model is the whole process's).
      if (!isMainThread) parentPort.postMessage(out);
      else {
        const thread = new Worker(new URL(import.meta.url));
        out.thread = await new Promise((done) => thread.once('message', done));
        console.log(JSON.stringify(out));
        await thread.terminate();
      }
    `,
    );
    const result = spawnSync(process.execPath, [...sandboxExecArgv(script, pyodideDirectory()), script], {
      encoding: 'utf8',
    });
    const denied = {
      read: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      eval: 'EvalError',
      function: 'EvalError',
    };
    expect(JSON.parse(result.stdout)).toEqual({ ...denied, thread: denied });
    expect(existsSync(tmpFile)).toBe(false);
  });
});
