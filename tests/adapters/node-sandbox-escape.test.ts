import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime, pyodideDirectory, sandboxExecArgv } from '../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { validateEnvironment } from '../../src/core/env/validate-env.ts';
import { readEnv } from '../fixtures/env-fixtures.ts';

let runtime: PyodideSandboxRuntime;
let server: Server;
let connections = 0;
const tmpFile = join(tmpdir(), `spade-escape-${process.pid}-${Date.now()}.txt`);
const packageJson = resolve(import.meta.dirname, '../../package.json');
let report: Record<string, unknown>;

async function runEscape(port: number): Promise<Record<string, unknown>> {
  const source = `TARGETS = ${JSON.stringify({ tmpFile, packageJson, port })}\n${readEnv('hostile', 'node_escape.py')}`;
  const handle = await runtime.load(source, { maxTurns: 5, timeoutMs: 10_000 });
  let observation = (await handle.reset(1, { timeoutMs: 10_000 })).observation;
  for (let i = 0; i < 40 && observation.includes('"PENDING"'); i++) {
    await new Promise((done) => setTimeout(done, 50));
    observation = (await handle.step('\\boxed{report}')).observation;
  }
  await handle.dispose();
  expect(observation.startsWith('ESCAPE ')).toBe(true);
  return JSON.parse(observation.slice('ESCAPE '.length)) as Record<string, unknown>;
}

beforeAll(async () => {
  rmSync(tmpFile, { force: true });
  server = createServer((socket) => {
    connections += 1;
    socket.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  runtime = createNodeSandboxRuntime({ keepSpare: false });
  await runtime.warm();
  report = await runEscape((server.address() as { port: number }).port);
});

afterAll(async () => {
  await runtime?.close();
  await new Promise((done) => server?.close(done));
  rmSync(tmpFile, { force: true });
});

describe('a Python environment that removes the import guard and reaches the Pyodide JS API', () => {
  it('got the JS API object, so every route below was really tried', () => {
    expect(Object.keys(report)).toEqual(expect.arrayContaining(['function_constructor', 'mount_host_root', 'load_package_from_host_port']));
    expect(Object.values(report)).not.toContain('PENDING');
  });

  it('cannot turn a JS function into code: code generation from strings is disallowed', () => {
    expect(report.function_constructor).toMatch(/^DENIED: .*Code generation from strings disallowed/);
  });

  it('finds none of the host globals in `import js`', () => {
    expect(report.js_globals).toEqual([]);
    expect(report.js_process).toMatch(/^DENIED: AttributeError/);
  });

  it('cannot read or write host files through mountNodeFS: the permission model denies it', () => {
    for (const name of ['read_etc_passwd', 'read_package_json', 'write_tmp_file']) {
      expect(String(report[name]), name).toMatch(/^DENIED: /);
    }
    expect(existsSync(tmpFile)).toBe(false);
  });

  it('cannot reach the network through loadPackage: nothing loads and no request arrives', () => {
    expect(report.load_package_from_host_port).toMatch(/^(DENIED: |ALLOWED: $)/);
    expect(connections).toBe(0);
  });

  it('does not taint the next environment: the sandbox is recycled before the next load', async () => {
    const result = await validateEnvironment(readEnv('broken', 'import_js.py'), runtime);
    expect(result.code).toBe('import_error');
    expect(runtime.recycleReasons).toHaveLength(1);
    expect(runtime.recycleReasons[0]).toContain('sys.meta_path');
    expect((await validateEnvironment(readEnv('good', 'number_ladder.py'), runtime)).ok).toBe(true);
  });
});

describe('the sandbox process flags themselves, against JavaScript that already runs inside', () => {
  it('deny host files, subprocesses, workers and code generation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spade-flags-'));
    const script = join(dir, 'attack.mjs');
    writeFileSync(script, `
      import * as fs from 'node:fs';
      import * as cp from 'node:child_process';
      import { Worker } from 'node:worker_threads';
      const out = {};
      const attempt = (name, run) => { try { run(); out[name] = 'ALLOWED'; } catch (e) { out[name] = e.code ?? e.name; } };
      attempt('read', () => fs.readFileSync('/etc/passwd'));
      attempt('write', () => fs.writeFileSync(${JSON.stringify(tmpFile)}, 'x'));
      attempt('spawn', () => cp.spawnSync('id'));
      attempt('worker', () => new Worker('1', { eval: true }));
      attempt('eval', () => eval('1 + 1'));
      attempt('function', () => new Function('return 1')());
      console.log(JSON.stringify(out));
    `);
    const result = spawnSync(process.execPath, [...sandboxExecArgv(script, pyodideDirectory()), script], { encoding: 'utf8' });
    expect(JSON.parse(result.stdout)).toEqual({ read: 'ERR_ACCESS_DENIED', write: 'ERR_ACCESS_DENIED', spawn: 'ERR_ACCESS_DENIED', worker: 'ERR_ACCESS_DENIED', eval: 'EvalError', function: 'EvalError' });
    expect(existsSync(tmpFile)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });
});
