import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isRunning, sandboxChildren, waitUntil } from '../fixtures/sandbox/sandbox-pids.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ARGS = [
  'run',
  '--model',
  'scripted:tests/fixtures/scripted/child-killer.json',
  '--epochs',
  '2',
  '--seed',
  '3',
  '--slots',
  '2',
  '--plays',
  '1',
  '--max-turns',
  '2',
  '--skills',
  'logical deduction',
  '--no-corpus',
];

function jsonl(dir: string, file: string): Array<Record<string, unknown>> {
  return readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;

// `spade run` whose first environment os._exits its sandbox in play; once epoch 0 is written the
// test also SIGKILLs every sandbox child of the CLI, so epoch 1 starts on dead sandboxes.
let out: string;
let killed: number[] = [];
let result: { status: number | null; stdout: string; stderr: string };
beforeAll(async () => {
  out = tempDir('spade-death-');
  const cli = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...ARGS, '--out', out], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  cli.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (killed.length === 0 && stdout.includes('epoch 1:')) {
      killed = sandboxChildren(cli.pid!);
      for (const pid of killed) process.kill(pid, 'SIGKILL');
    }
  });
  const status = await new Promise<number | null>((done) => cli.once('exit', (code) => done(code)));
  result = { status, stdout, stderr };
}, 240_000);

describe('spade run when sandbox children die', () => {
  it('finishes every epoch: a hard exit in play and killed children cost episodes, not the run', () => {
    expect(killed.length, result.stderr).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/ERR_IPC_CHANNEL_CLOSED|Unhandled/);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^epoch 2: /m);
    expect(runJson(out)).toMatchObject({ status: 'completed', epochsCompleted: 2, lastError: null });
    expect(jsonl(out, 'epochs.jsonl').map((m) => m.epoch)).toEqual([0, 1]);
    expect(killed.every((pid) => !isRunning(pid))).toBe(true);
  });

  it('records the hard exit as a typed episode error on its environment, and the other environments are still won', () => {
    const trapId = jsonl(out, 'environments.jsonl').find((env) => String(env.code).includes('class TrapDoorEnv'))?.id;
    const episodes = jsonl(out, 'episodes.jsonl');
    const trap = episodes.filter((e) => e.envId === trapId);
    expect(trap.length).toBeGreaterThan(0);
    for (const episode of trap) expect(episode).toMatchObject({ error: { code: 'process_exit' } });
    expect(episodes.filter((e) => e.envId !== trapId && e.return === 1).length).toBeGreaterThan(0);
  });
});

describe('spade run when no sandbox can start', () => {
  it('fails cleanly: exit 1, the fence error printed, run.json marked failed with it', async () => {
    const dir = tempDir('spade-unfenced-');
    const failed = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...ARGS, '--out', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { HOME: process.env.HOME ?? '/tmp', PATH: '/nonexistent' },
    });
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('SPADE_UNFENCED_SANDBOX=1');
    expect(runJson(dir)).toMatchObject({
      status: 'failed',
      epochsCompleted: 0,
      lastError: expect.stringContaining('Cannot fence the Python sandbox'),
    });
    expect(await waitUntil(() => sandboxChildren(failed.pid!).length === 0, 100)).toBe(true);
  });
});
