// The syntax check that spares an interpreter must say exactly what a load would: for each broken
// code, the real sandbox's load and the shared syntax interpreter's check give the same error.
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import { missingEnvName, syntaxFailure } from '../../../src/core/env/static-checks.ts';

const runtime = fileSandbox();

const BROKEN = {
  'an unclosed bracket': 'class OpenEnv:\n    def reset(self, seed=None):\n        return ("x", {}\n',
  'a bad indent': 'class IndentEnv:\ndef reset(self, seed=None):\n    return "x", {}\n',
  'a null byte': 'class NullEnv:\n    x = 1\0\n',
};

describe('syntax errors found without an interpreter of their own', () => {
  it.each(Object.entries(BROKEN))('%s: the same error as the load gives', async (_, code) => {
    const loaded = await runtime()
      .load(code, { maxTurns: 12, timeoutMs: 5000 })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isEnvError(loaded) && loaded.code).toBe('syntax_error');
    const found = await syntaxFailure(code, runtime());
    expect(found && { code: found.code, stage: found.stage, message: found.message }).toEqual(
      isEnvError(loaded) ? { code: loaded.code, stage: loaded.stage, message: loaded.message } : null,
    );
  });

  it('code that compiles passes the check, even when it would fail at run time', async () => {
    expect(await syntaxFailure('class LaterEnv:\n    pass\nraise RuntimeError("at run time")\n', runtime())).toBeNull();
  });
});

describe('the Env name check', () => {
  it('passes any text with Env in it, refuses text without', () => {
    expect(missingEnvName('# a ToolUseBaseEnv subclass follows\nX = 1\n')).toBeNull();
    expect(missingEnvName('class Maze:\n    pass\n')).toMatchObject({ code: 'no_env_class', stage: 'load' });
  });
});
