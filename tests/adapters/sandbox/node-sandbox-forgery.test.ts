// Every environment runs in a fresh interpreter of its own, so tampering with shared Python state
// or with the harness can at most forge the attacker's own replies; the next environment's verdict
// is its own. And the host decodes values from the harness's private, exact-type encoding, so
// look-alike types and lying lengths are refused with stable codes. Real Pyodide, Node sandbox.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { readEnv } from '../../fixtures/env-fixtures.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

function rejection(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  return promise.then(
    () => ({ message: 'resolved instead of rejecting' }),
    (error: { code?: string; message?: string }) => error,
  );
}

// What each tamper shows in its own interpreter (its reset runs the tamper, its step shows it).
const EVIDENCE: Record<string, RegExp> = {
  'asyncio_timer.py': /^TAMPERED pending timers 1$/,
  'audit_hook.py': /^TAMPERED blocked by audit hook$/,
  'code_swap.py': /^FORGED BY CODE SWAP$/,
  'codec_cache.py': /^TAMPERED b'EVIL'$/,
  'frame_walk.py': /^FORGED BY FRAME WALK$/,
  'json_encoder.py': /^TAMPERED "forged"$/,
  'module_class_swap.py': /^TAMPERED randint 4$/,
  'monitoring.py': /^TAMPERED harness seen$/,
  'settrace_locals.py': /^FORGED BY SETTRACE$/,
  'sys_modules_lookalike.py': /^TAMPERED isnan\(nan\) False$/,
};
const TAMPERS = readdirSync(join(import.meta.dirname, '../../fixtures/envs/hostile/tamper')).sort();

describe("tampering with the interpreter reaches only the attacker's own environment", () => {
  it('every tamper fixture has its evidence listed', () => {
    expect(TAMPERS).toEqual(Object.keys(EVIDENCE).sort());
  });

  it.each(TAMPERS.map((file, i) => ({ file, next: i % 2 === 0 ? 'broken' : 'good' })))(
    '$file works in its own interpreter; the $next environment after it keeps its verdict',
    async ({ file, next }) => {
      const attacker = await runtime().load(readEnv('hostile', `tamper/${file}`), { maxTurns: 5, timeoutMs: 10_000 });
      await attacker.reset(1, { timeoutMs: 10_000 });
      const shown = (await attacker.step('\\boxed{x}', { timeoutMs: 10_000 })).observation;
      await attacker.dispose();
      expect(shown).toMatch(EVIDENCE[file]!);
      if (next === 'broken') {
        const report = await validateEnvironment(readEnv('broken', 'reward_nan.py'), runtime());
        expect(report.code, file).toBe('reward_not_finite');
      } else {
        const report = await validateEnvironment(readEnv('good', 'number_ladder.py'), runtime());
        expect(report, file).toMatchObject({ ok: true, code: null });
      }
    },
  );
});

describe('the host decodes exact types and sizes from the private encoding', () => {
  it('a user class named bool is not a bool: step_bad_flags', async () => {
    const report = await validateEnvironment(readEnv('hostile', 'forge/fake_bool.py'), runtime());
    expect(report).toMatchObject({ ok: false, code: 'step_bad_flags' });
    expect(report.message).toContain('an instance of class "bool"');
  });

  it('a user class named str is not a str: reset_bad_return', async () => {
    const report = await validateEnvironment(readEnv('hostile', 'forge/fake_str.py'), runtime());
    expect(report).toMatchObject({ ok: false, code: 'reset_bad_return' });
    expect(report.message).toContain('a tuple of 2 items (class str, dict)');
  });

  it('a str subclass whose __len__ lies is measured for real: output_too_large at 1,000,000 characters', async () => {
    const handle = await runtime().load(readEnv('hostile', 'forge/lying_len.py'), { maxTurns: 5, timeoutMs: 10_000 });
    const error = await rejection(handle.reset(1, { timeoutMs: 10_000 }));
    await handle.dispose();
    expect(error).toMatchObject({ code: 'output_too_large' });
    expect(error.message).toContain('Saw 1000000 characters');
  });

  it('a 900 kB exception type name is cut to size: reset_exception with a short message', async () => {
    const handle = await runtime().load(readEnv('hostile', 'forge/huge_exception_name.py'), {
      maxTurns: 5,
      timeoutMs: 10_000,
    });
    const error = await rejection(handle.reset(1, { timeoutMs: 10_000 }));
    await handle.dispose();
    expect(error).toMatchObject({ code: 'reset_exception' });
    expect(error.message).toContain(`${'E'.repeat(100)}: boom`);
    expect(error.message!.length).toBeLessThan(3000);
  });
});

describe('fresh instances and the turn cap', () => {
  const COUNTER = [
    'class CounterEnv:',
    '    def __init__(self, max_turns=7):',
    '        self.max_turns = max_turns',
    '        self.plays = 0',
    '    def reset(self, seed=None):',
    '        self.plays += 1',
    '        return f"play {self.plays} of at most {self.max_turns} turns", {}',
    '    def step(self, action):',
    '        return "x", 0.0, True, False, {}',
    '',
  ].join('\n');

  it('renew() builds a new instance: state of the earlier play is gone, the module stays loaded', async () => {
    const handle = await runtime().load(COUNTER, { maxTurns: 12, timeoutMs: 10_000 });
    expect((await handle.reset(1)).observation).toBe('play 1 of at most 7 turns');
    expect((await handle.reset(2)).observation).toBe('play 2 of at most 7 turns');
    await handle.renew();
    expect((await handle.reset(3)).observation).toBe('play 1 of at most 7 turns');
    await handle.dispose();
  });

  it("the class's own max_turns is kept below the cap and lowered to it above", async () => {
    const low = await runtime().load(COUNTER.replace('max_turns=7', 'max_turns=30'), {
      maxTurns: 12,
      timeoutMs: 10_000,
    });
    expect((await low.reset(1)).observation).toBe('play 1 of at most 12 turns');
    await low.dispose();
    const needsArg = await runtime().load(COUNTER.replace('max_turns=7', 'max_turns'), {
      maxTurns: 12,
      timeoutMs: 10_000,
    });
    expect((await needsArg.reset(1)).observation).toBe('play 1 of at most 12 turns');
    await needsArg.dispose();
    const notInt = await runtime().load(COUNTER.replace('max_turns=7', 'max_turns="many"'), {
      maxTurns: 9,
      timeoutMs: 10_000,
    });
    expect((await notInt.reset(1)).observation).toBe('play 1 of at most 9 turns');
    await notInt.dispose();
  });

  it("a disposed environment's interpreter answers nothing again", async () => {
    const handle = await runtime().load(COUNTER, { maxTurns: 12, timeoutMs: 10_000 });
    await handle.dispose();
    expect(await rejection(handle.reset(1))).toMatchObject({ code: 'env_lost' });
  });
});
