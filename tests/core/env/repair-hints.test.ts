import { describe, expect, it } from 'vitest';
import { failureToEnvError } from '../../../src/core/env/contract.ts';
import { envError } from '../../../src/core/env/env-error.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { firstDifference } from '../../../src/core/env/repair-hints.ts';
import type { EnvHandle, LoadOptions, SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';

/**
 * A runtime that answers as the real harness does for the replies below: a module with no class
 * ending in Env fails to load with the harness's `no_class` failure, a line `# missing reset` makes
 * the first Env class lack reset, text that is not Python (a fence line, or `(((`) is a syntax error at line 1,
 * and resets return `observations` in turn.
 */
const notPython = (code: string) => code.includes('```') || code.includes('(((');

function harnessLike(observations: string[] = ['Say \\boxed{go}.']): SandboxRuntime {
  let resets = 0;
  return {
    warm: async () => undefined,
    checkSyntax: async (source) =>
      notPython(source) ? { ok: false, line: 1, message: 'invalid syntax' } : { ok: true },
    close: async () => undefined,
    async load(code: string, options: LoadOptions): Promise<EnvHandle> {
      const stage = options.stage ?? 'load';
      if (notPython(code))
        throw failureToEnvError({ ok: false, error: 'syntax', msg: 'invalid syntax', line: 1 }, 'load', stage);
      const names = [...code.matchAll(/^class (\w+)/gm)].map((m) => m[1]!);
      const cls = names.find((n) => n.endsWith('Env'));
      if (!cls) throw failureToEnvError({ ok: false, error: 'no_class', classes: names }, 'load', stage);
      if (code.includes('# missing reset'))
        throw failureToEnvError({ ok: false, error: 'missing_method', cls, missing: ['reset'] }, 'load', stage);
      return {
        className: cls,
        hasSolution: false,
        reset: async () => ({ observation: observations[resets++ % observations.length]!, info: {} }),
        step: async () => ({ observation: 'ok', reward: 0, terminated: true, truncated: false, info: {} }),
        renew: async () => undefined,
        toolFacts: async () => null,
        executeTool: async () => {
          throw new Error('this fake has no tools outside step');
        },
        solution: async () => null,
        dispose: async () => undefined,
      };
    },
  };
}

const validate = (reply: string, runtime = harnessLike(), stoppedAtLimit = false) =>
  validateEnvironment(reply, runtime, { ...DEFAULT_VALIDATION, stoppedAtLimit });

describe('repair messages point at the real cause', () => {
  it('a base class and its subclass both ending in Env: rename the base, not "define reset in it"', async () => {
    const reply = [
      'Here is a small framework and the game.',
      '```python',
      'class GridBaseEnv:',
      '    # missing reset: subclasses define it',
      '    def step(self, action):',
      '        raise NotImplementedError',
      '',
      'class LanternGridEnv(GridBaseEnv):',
      '    def reset(self, seed=None):',
      '        return "Move with \\\\boxed{N}.", {}',
      '    def step(self, action):',
      '        return "ok", 0.0, True, False, {}',
      '```',
    ].join('\n');
    const report = await validate(reply);
    expect(report).toMatchObject({ ok: false, stage: 'load', code: 'env_class_is_base' });
    expect(report.message).toContain('Expected the sandbox to play LanternGridEnv');
    expect(report.message).toContain(
      'it played GridBaseEnv, the first class whose name ends in Env (LanternGridEnv subclasses it)',
    );
    expect(report.message).toContain(
      'rename the base class so that its name does not end in Env (for example GridBase)',
    );
    expect(report.message).toContain(
      'GridBaseEnv failed (expected GridBaseEnv to define reset and step; saw no reset)',
    );
    expect(report.message).not.toMatch(/implement reset/);
  });

  it('a missing method on a lone class keeps its own message', async () => {
    const report = await validate(
      '```python\nclass LoneEnv:\n    # missing reset\n    def step(self, action):\n        return "ok", 0.0, True, False, {}\n```',
    );
    expect(report).toMatchObject({ ok: false, code: 'missing_method' });
    expect(report.message).toContain('Fix: implement reset(self, seed=None) and step(self, action)');
  });

  it('code split over two fenced blocks says the class is in the other block, not "name the class ...Env"', async () => {
    const reply = [
      'First the helpers:',
      '```python',
      'import random',
      'WORDS = ["amber", "brass", "cobalt"]',
      '```',
      'Then the environment:',
      '```python',
      'class WordVaultEnv:',
      '    def reset(self, seed=None):',
      '        return "Guess with \\\\boxed{word}.", {}',
      '    def step(self, action):',
      '        return "ok", 0.0, True, False, {}',
      '```',
    ].join('\n');
    const report = await validate(reply);
    expect(report).toMatchObject({ ok: false, stage: 'load', code: 'no_env_class' });
    expect(report.message).toContain(
      'Saw 2 fenced blocks; the class WordVaultEnv is in block 2, not in the block that was run',
    );
    expect(report.message).toContain(
      'one ```python block holding everything: imports, helpers and the WordVaultEnv class',
    );
    expect(report.message).not.toContain("name the environment class like 'MazeEnv'");
  });

  it('a reply cut before its closing fence says it was cut off, not "syntax error at line 1"', async () => {
    const reply =
      '<think>Short plan.</think>\n```python\nimport random\n\nclass TideEnv:\n    def reset(self, seed=None):\n        self.rng = random.Random(seed)\n        self.level = self.rng.randint(';
    for (const stopped of [false, true]) {
      const report = await validate(reply, harnessLike(), stopped);
      expect(report).toMatchObject({ ok: false, stage: 'extract', code: 'reply_cut_off' });
      expect(report.message).toContain('the reply was cut off inside its ```python block, with no closing ```');
      expect(report.message).not.toContain('SyntaxError');
      expect(report.message?.includes('(it reached the token limit)')).toBe(stopped);
    }
  });

  it('a reply cut off inside <think> says so, not "an empty reply"', async () => {
    const report = await validate('<think>Let me plan a tide game. The levels could', harnessLike(), true);
    expect(report).toMatchObject({ ok: false, code: 'reply_cut_off' });
    expect(report.message).toContain('cut off inside its <think> block, before any code (it reached the token limit)');
  });

  it('a closed block with a real syntax error keeps the syntax message, even when the prose after it hit the limit', async () => {
    for (const stopped of [false, true]) {
      const report = await validate(
        '```python\nclass BadEnv:\n    x = (((\n```\nThis game works by',
        harnessLike(),
        stopped,
      );
      expect(report).toMatchObject({ ok: false, code: 'syntax_error' });
    }
  });

  it('the nondeterminism message quotes where the two observations first differ', async () => {
    const head = 'Welcome to the vault. The dial has eight positions and the lamp is ';
    // The probe resets at seed 42, then 123, the challenge at two drawn seeds, then the determinism
    // check at 42 and the first drawn seed again.
    const runtime = harnessLike([
      `${head}red. Tail text that is the same.`,
      'x',
      'y',
      'z',
      `${head}blue. Tail text that is the same.`,
      'y',
    ]);
    const report = await validate('```python\nclass VaultEnv:\n    pass\n```', runtime);
    expect(report).toMatchObject({ ok: false, stage: 'determinism', code: 'nondeterministic_reset' });
    expect(report.message).toContain(`they first differ at character ${head.length + 1} (line 1)`);
    expect(report.message).toContain('"…ght positions and the lamp is red. Tail text that is the sam…" the first time');
    expect(report.message).toContain('"…ght positions and the lamp is blue. Tail text that is the sa…" the second');
  });
});

describe('firstDifference', () => {
  it('finds the first differing character and its line, with context on each side', () => {
    expect(firstDifference('ab\ncdXef', 'ab\ncdYef', 2)).toEqual({ at: 5, line: 2, first: '…cdXe…', second: '…cdYe…' });
    expect(firstDifference('same', 'same and more', 3)).toEqual({ at: 4, line: 1, first: '…ame', second: '…ame an…' });
  });

  it('the base-class rule leaves unrelated failures alone', async () => {
    const timeout = envError('validation_timeout', 'probe', { expected: 'x', seen: 'y', fix: 'z' });
    const { baseClassError } = await import('../../../src/core/env/repair-hints.ts');
    expect(baseClassError('class AEnv:\n    pass\nclass BEnv(AEnv):\n    pass\n', timeout)).toBeNull();
  });
});
