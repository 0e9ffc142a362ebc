// What the standard library shows an environment in the real Node sandbox. `time.sleep`: a short
// sleep works, in validation and in play; a long one ends as the call's timeout with the stable
// timeout code, never an internal error. `os.environ`: nothing of the host (its temp folder, the
// sandbox bundle's name and hash).
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';

const runtime = fileSandbox();

// A digit guess that naps `NAP` seconds in reset and in every step, and forever on \boxed{0}.
const napper = (nap: string) => `import re
import time


class NapGuessEnv:
    def __init__(self, max_turns=6):
        self.max_turns = max_turns
        self.turn_count = 0
        self.secret = 1

    def reset(self, seed=None):
        time.sleep(${nap})
        self.secret = random.Random(seed).randint(1, 9)
        self.turn_count = 0
        return "Guess the hidden digit 1-9 as \\\\boxed{n}.", {}

    def step(self, action):
        time.sleep(${nap})
        self.turn_count += 1
        found = re.search(r"\\\\boxed\\{(\\d+)\\}", action)
        guess = int(found.group(1)) if found else -1
        if guess == 0:
            time.sleep(3600)
        won = guess == self.secret
        over = won or self.turn_count >= self.max_turns
        return ("Right." if won else "Wrong."), (1.0 if won else 0.0), won, over and not won, {}

    def solution(self):
        return "\\\\boxed{%d}" % self.secret
`;

const SHORT = napper('0.02');

describe('time.sleep in the sandbox', () => {
  it('a short sleep passes validation', async () => {
    const report = await validateEnvironment(SHORT, runtime());
    expect(report.message).toBeNull();
    expect(report).toMatchObject({ ok: true, className: 'NapGuessEnv' });
  }, 60_000);

  it('a short sleep plays: the sleep really waits, and the game answers', async () => {
    const handle = await runtime().load(SHORT, { maxTurns: 6, timeoutMs: 5000 });
    const started = Date.now();
    await handle.reset(5, { timeoutMs: 5000 });
    const step = await handle.step('\\boxed{5}', { timeoutMs: 5000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    expect(step.observation).toMatch(/^(Right|Wrong)\.$/);
    await handle.dispose();
  }, 60_000);

  it('a long sleep in play ends as step_timeout', async () => {
    const handle = await runtime().load(SHORT, { maxTurns: 6, timeoutMs: 5000 });
    await handle.reset(5, { timeoutMs: 5000 });
    const error = await handle.step('\\boxed{0}', { timeoutMs: 1000 }).then(
      () => null,
      (e: { code?: string; message?: string }) => e,
    );
    expect(error).toMatchObject({ code: 'step_timeout', stage: 'play' });
    expect(error!.message).not.toMatch(/can_run_sync|NameError/);
  }, 60_000);

  it('a long sleep in reset fails validation as reset_timeout', async () => {
    const report = await validateEnvironment(napper('3600'), runtime(), {
      maxTurns: 6,
      totalTimeoutMs: 4000,
      callTimeoutMs: 1000,
    });
    expect(report).toMatchObject({ ok: false, code: 'reset_timeout' });
    expect(report.message).not.toMatch(/can_run_sync|NameError/);
  }, 60_000);
});

// Reports os.environ, the working folder and sys.path as its first observation.
const SURROUNDINGS = `import json
import os
import sys


class SurroundingsEnv:
    def __init__(self, max_turns=3):
        self.max_turns = max_turns
        self.turn_count = 0

    def reset(self, seed=None):
        return json.dumps({"environ": dict(os.environ), "cwd": os.getcwd(), "path": sys.path}), {}

    def step(self, action):
        return "Over.", 0.0, True, False, {}
`;

describe('os.environ in the sandbox', () => {
  it('holds only neutral values: no host folder, bundle name or hash', async () => {
    const handle = await runtime().load(SURROUNDINGS, { maxTurns: 3, timeoutMs: 5000 });
    const seen = JSON.parse((await handle.reset(1, { timeoutMs: 5000 })).observation) as {
      environ: Record<string, string>;
      cwd: string;
      path: string[];
    };
    await handle.dispose();
    expect(seen.environ).toEqual({
      USER: 'web_user',
      LOGNAME: 'web_user',
      PATH: '/',
      PWD: '/',
      HOME: '/home/pyodide',
      LANG: 'C.UTF-8',
      _: 'python',
      PYTHONINSPECT: '1',
      LD_LIBRARY_PATH: expect.any(String),
    });
    const text = JSON.stringify(seen);
    for (const hostThing of [tmpdir(), 'spade', '.mjs', process.cwd()]) expect(text).not.toContain(hostThing);
    expect(text).not.toMatch(/[0-9a-f]{16}/);
  }, 60_000);
});
