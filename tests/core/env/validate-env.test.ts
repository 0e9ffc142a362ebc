import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { DEFAULT_VALIDATION, validateEnvironment, type ValidationOptions } from '../../../src/core/env/validate-env.ts';
import { BROKEN_ENVS, GOOD_ENVS, readEnv } from '../../fixtures/env-fixtures.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

/** The tab defaults, except a shorter per-call limit so that hangs are killed quickly. */
const OPTIONS: ValidationOptions = { ...DEFAULT_VALIDATION, callTimeoutMs: 1500 };

const fenced = (code: string) =>
  `<think>Let me design it.</think>\nHere is the environment:\n\`\`\`python\n${code}\`\`\`\nGood luck!`;

describe('good environments', () => {
  it.each(GOOD_ENVS)('$file ($skill) is valid', async (fixture) => {
    const report = await validateEnvironment(fenced(readEnv('good', fixture.file)), runtime(), OPTIONS);
    expect(report).toMatchObject({ ok: true, stage: null, code: null, message: null, className: fixture.className });
    expect(report.firstObservation).toContain('\\boxed{');
    expect(report.stages.map((s) => [s.stage, s.ok])).toEqual([
      ['extract', true],
      ['load', true],
      ['probe', true],
      ['determinism', true],
    ]);
    if (fixture.needsBraceRepair) expect(report.repairedLines.length).toBeGreaterThan(0);
    else expect(report.repairedLines).toEqual([]);
  });

  it('finds FrozenSet and Mapping without an import, as SPADE injects them', async () => {
    const code = [
      'class TypedEnv:',
      '    def __init__(self, max_turns=5):',
      '        self.max_turns = max_turns',
      '        self.kinds = (FrozenSet[str], Mapping[str, int])',
      '        self.ok = isinstance({}, Mapping)',
      '    def reset(self, seed=None):',
      '        return "Say \\\\boxed{go}.", {}',
      '    def step(self, action):',
      '        return "done", 1.0, True, False, {}',
      '',
    ].join('\n');
    expect(await validateEnvironment(code, runtime(), { ...OPTIONS, source: 'code' })).toMatchObject({
      ok: true,
      className: 'TypedEnv',
    });
  });

  it('the brace-repair fixture does not parse as written and does after repair', async () => {
    const fixture = GOOD_ENVS.find((f) => f.needsBraceRepair)!;
    const source = readEnv('good', fixture.file);
    const raw = await runtime().checkSyntax(source, 'exec');
    expect(raw.ok).toBe(false);
    const report = await validateEnvironment(source, runtime(), OPTIONS);
    const line = report.repairedLines[0]!;
    expect(raw.ok === false && raw.line).toBe(line);
    const before = source.split('\n')[line - 1]!;
    const after = report.source.split('\n')[line - 1]!;
    expect(before).toContain('\\\\boxed{toggle k}');
    expect(after).toContain('\\\\boxed{{toggle k}}');
    // Groups that are valid expressions stay single: they are real f-string fields.
    expect(after).toContain('{self._pattern(self.lamps)}');
    expect(after).toContain('{n - 1}');
    expect(report.firstObservation).toContain('Send \\boxed{toggle k} to flip switch k (0 to 4).');
  });
});

describe('broken and hostile environments', () => {
  it('every expected stage and code is a real one, and the table has no duplicates', () => {
    expect(new Set(BROKEN_ENVS.map((f) => f.file)).size).toBe(BROKEN_ENVS.length);
    expect(BROKEN_ENVS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(BROKEN_ENVS)('$file fails at $stage with $code', async (fixture) => {
    const restarts = runtime().restarts;
    // Start-up of the environment's fresh interpreter is not charged to it (validateEnvironment warms first too).
    await runtime().warm();
    const started = Date.now();
    const report = await validateEnvironment(readEnv('broken', fixture.file), runtime(), OPTIONS);
    expect({ ok: report.ok, stage: report.stage, code: report.code }).toEqual({
      ok: false,
      stage: fixture.stage,
      code: fixture.code,
    });
    expect(report.message).toMatch(/^Expected .+\. Saw .+\. Fix: .+\.$/s);
    expect(report.stages.at(-1)).toMatchObject({ stage: fixture.stage, ok: false });
    expect(report.ms).toBeLessThanOrEqual(OPTIONS.totalTimeoutMs + 1000);
    if (fixture.restarts) {
      // A hang or a hard exit costs the sandbox: it is replaced, and the next environment is fine.
      expect(runtime().restarts).toBe(restarts + 1);
      if (fixture.code.endsWith('_timeout')) expect(Date.now() - started).toBeLessThan(OPTIONS.callTimeoutMs + 3000);
      const next = await validateEnvironment(readEnv('good', GOOD_ENVS[0]!.file), runtime(), OPTIONS);
      expect(next).toMatchObject({ ok: true, className: GOOD_ENVS[0]!.className });
    } else {
      expect(runtime().restarts).toBe(restarts);
    }
  });

  it('a prose reply with no code block says so, not that the prose is a syntax error', async () => {
    const prose =
      '<think>Hmm.</think>I would design a maze where the agent collects keys. Each door needs a key, and the goal is the exit.';
    const report = await validateEnvironment(prose, runtime(), OPTIONS);
    expect(report).toMatchObject({ ok: false, stage: 'extract', code: 'no_code_block' });
    expect(report.message).toMatch(
      /^Expected the complete environment in a ```python fenced block\. Saw no python code block found: the reply has no fenced block and no class, function or import, and taken whole it is not Python \(.+ at line 1\)\. Fix: /,
    );
    const bare = await validateEnvironment(readEnv('good', GOOD_ENVS[0]!.file), runtime(), OPTIONS);
    expect(bare).toMatchObject({ ok: true, className: GOOD_ENVS[0]!.className });
    const broken = await validateEnvironment(fenced('class BrokenEnv:\n    def reset(self:\n'), runtime(), OPTIONS);
    expect(broken).toMatchObject({ ok: false, stage: 'load', code: 'syntax_error' });
  });

  it('a hang reports a timeout code naming the call that hung', () => {
    for (const fixture of BROKEN_ENVS.filter((f) => f.file.startsWith('hang_')))
      expect(fixture.code).toContain('timeout');
  });

  it('the replay failure names the second reset', async () => {
    const report = await validateEnvironment(readEnv('broken', 'replay_reset_raises.py'), runtime(), OPTIONS);
    expect(report.message).toMatch(
      /^Expected a second reset\(seed=123\) to return \(observation, info\) without raising\. Saw KeyError: 123/,
    );
  });

  it('an os._exit is reported as an exit, not as a crash', async () => {
    const report = await validateEnvironment(readEnv('broken', 'os_exit_module.py'), runtime(), OPTIONS);
    expect(report.message).toContain('status 3');
    expect(report.message).toContain('os._exit');
  });
});

describe('validation budget', () => {
  // reset busy-waits 700 ms: each call fits the per-call limit, the whole validation does not fit 1 s.
  const SLOW_RESET = readEnv('broken', 'reset_raises.py')
    .replace(/# Broken: reset raises\./, '# Slow but finite: every reset busy-waits 700 ms.\nimport time')
    .replace(
      / {8}levels = \[\]\n {8}return levels\[seed % 5\], \{\}/,
      '        end = time.monotonic() + 0.7\n        while time.monotonic() < end:\n            pass\n        return "Guess the hidden digit as \\\\boxed{n}.", {}',
    );

  it('the slow environment is valid when the budget allows it', async () => {
    expect(SLOW_RESET).toContain('time.monotonic() + 0.7');
    const report = await validateEnvironment(SLOW_RESET, runtime(), {
      maxTurns: 12,
      totalTimeoutMs: 10_000,
      callTimeoutMs: 2000,
    });
    expect(report).toMatchObject({ ok: true });
  });

  it('stops with a timeout once the whole budget is spent', async () => {
    const report = await validateEnvironment(SLOW_RESET, runtime(), {
      maxTurns: 12,
      totalTimeoutMs: 1000,
      callTimeoutMs: 2000,
    });
    expect(report.ok).toBe(false);
    expect(report.code === 'validation_timeout' || report.code === 'reset_timeout').toBe(true);
    expect(report.stage).toBe('probe');
    expect(report.message).toMatch(/^Expected .+ Fix: /s);
    expect(report.ms).toBeLessThan(2000);
  });
});
