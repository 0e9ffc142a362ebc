import { spawnSync } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pyodideDirectory, sandboxExecArgv } from '../../../src/adapters/sandbox/node-sandbox.ts';
import {
  FENCE_NAMESPACES,
  fencePrefix,
  findExecutable,
  SANDBOX_DATA_LIMIT_BYTES,
  sandboxLauncher,
  UNFENCED_ENV,
} from '../../../src/adapters/sandbox/process-fence.ts';
import { waitUntil } from '../../fixtures/sandbox/sandbox-pids.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/sandbox');
const NET_ATTACK = `${FIXTURES}/net-attack.mjs`;
const MEMORY_ATTACK = `${FIXTURES}/memory-attack.mjs`;

let server: Server;
let udp: UdpSocket;
let port: number;
let connections = 0;
let datagrams = 0;
const hostAddress = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
const targets = ['127.0.0.1', ...(hostAddress ? [hostAddress] : [])];

// Runs `script` as sandbox JavaScript (the sandbox's Node flags) behind `prefix`.
function runAsSandbox(prefix: readonly string[], script: string, args: string[] = []) {
  const line = [...prefix, process.execPath, ...sandboxExecArgv(script, pyodideDirectory()), script, ...args];
  return spawnSync(line[0]!, line.slice(1), { encoding: 'utf8', env: {}, timeout: 60_000 });
}

function tools() {
  const path = process.env.PATH ?? '';
  return {
    unshare: findExecutable('unshare', path)!,
    setpriv: findExecutable('setpriv', path)!,
    prlimit: findExecutable('prlimit', path)!,
  };
}

beforeAll(async () => {
  server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '0.0.0.0', done));
  port = (server.address() as { port: number }).port;
  udp = createSocket('udp4', () => {
    datagrams += 1;
  });
  await new Promise<void>((done) => udp.bind(port, '127.0.0.1', done));
});

afterAll(async () => {
  await new Promise((done) => server?.close(done));
  udp?.close();
});

describe('the kernel fence around the Node sandbox', () => {
  it('is set up on this machine: a new network namespace, with setpriv and prlimit in the chain', async () => {
    const launcher = await sandboxLauncher();
    expect(['netns', 'userns']).toContain(launcher.fence);
    expect(launcher.prefix.join(' ')).toMatch(
      /unshare .*--net -- .*setpriv --pdeathsig KILL .* -- .*prlimit --data=\d+ --core=0 --$/,
    );
  });

  it('the attack script really connects when it runs unfenced (so the denials below mean something)', async () => {
    const before = { connections, datagrams };
    const result = runAsSandbox([], NET_ATTACK, [String(port), '127.0.0.1']);
    expect(JSON.parse(result.stdout)).toMatchObject({ '127.0.0.1': 'CONNECTED', udp: 'SENT' });
    // spawnSync held this event loop; let the server count what the kernel already accepted.
    await waitUntil(() => connections > before.connections && datagrams > before.datagrams, 2000);
    expect({ connections, datagrams }).toEqual({
      connections: before.connections + 1,
      datagrams: before.datagrams + 1,
    });
  });

  it.each(FENCE_NAMESPACES)(
    '$fence: compromised sandbox JavaScript reaches no TCP or UDP server, on loopback or a host address',
    async ({ flags }) => {
      const before = { connections, datagrams };
      const result = runAsSandbox(fencePrefix(tools(), flags), NET_ATTACK, [String(port), ...targets]);
      const report = JSON.parse(result.stdout) as Record<string, unknown>;
      for (const host of targets) expect(report[host], host).toMatch(/^(ENETUNREACH|ECONNREFUSED|EADDRNOTAVAIL)$/);
      expect(report.udp).not.toBe('SENT');
      expect(report.interfaces).toEqual([]);
      await new Promise((done) => setTimeout(done, 300));
      expect({ connections, datagrams }).toEqual(before);
    },
  );

  it('runs the child without capabilities or new privileges, with no core dumps and capped memory', async () => {
    const script =
      "process.stdout.write(require('node:fs').readFileSync('/proc/self/status', 'utf8') + require('node:fs').readFileSync('/proc/self/limits', 'utf8'))";
    const prefix = (await sandboxLauncher()).prefix;
    const result = spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, '-e', script], {
      encoding: 'utf8',
      env: {},
    });
    expect(result.stdout).toMatch(/^CapEff:\s+0+$/m);
    expect(result.stdout).toMatch(/^CapBnd:\s+0+$/m);
    expect(result.stdout).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(result.stdout).toMatch(/^Max core file size\s+0\s+0\s/m);
    expect(result.stdout).toMatch(
      new RegExp(`^Max data size\\s+${SANDBOX_DATA_LIMIT_BYTES}\\s+${SANDBOX_DATA_LIMIT_BYTES}\\s`, 'm'),
    );
  });

  it('stops compromised sandbox JavaScript from taking more than the memory cap', async () => {
    const result = runAsSandbox((await sandboxLauncher()).prefix, MEMORY_ATTACK);
    const totals = result.stdout
      .split('\n')
      .filter((l) => /^\d+$/.test(l))
      .map(Number);
    expect(result.stdout).not.toContain('DONE');
    expect(Math.max(0, ...totals)).toBeLessThan(SANDBOX_DATA_LIMIT_BYTES / 2 ** 20);
    expect(Math.max(0, ...totals)).toBeGreaterThan(256);
  });
});

describe('where the fence cannot be set up', () => {
  const host = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', `${FIXTURES}/sandbox-host.ts`, 'once'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 90_000,
      env: { HOME: process.env.HOME ?? '/tmp', PATH: '/nonexistent', ...env },
    });

  it('fails closed with a specific error that names the opt-out', () => {
    const result = host({});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('SandboxFenceError');
    expect(result.stderr).toContain('util-linux unshare, setpriv, prlimit not found on PATH');
    expect(result.stderr).toContain(`set ${UNFENCED_ENV}=1`);
    expect(result.stdout).not.toContain('tiny');
  });

  it(`runs unfenced, with a warning, when ${UNFENCED_ENV}=1`, () => {
    const result = host({ [UNFENCED_ENV]: '1' });
    expect(result.stderr).toContain(`warning: ${UNFENCED_ENV}=1: the Python sandbox runs WITHOUT a network fence`);
    expect(result.stdout.trim()).toBe('tiny 3');
    expect(result.status).toBe(0);
  });
});
