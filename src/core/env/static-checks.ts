import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import { failureToEnvError } from './contract.ts';
import { envError, type EnvError } from './env-error.ts';

/**
 * The failure a load would report for code that does not compile, found by the runtime's shared
 * syntax interpreter (the same `compile` the load runs first), so a syntax error never costs an
 * interpreter of its own (docs/method.md section 1, "Validate"). Null when the code compiles or
 * the check cannot answer (the load then decides).
 */
export async function syntaxFailure(code: string, runtime: SandboxRuntime): Promise<EnvError | null> {
  const check = await runtime.checkSyntax(code, 'exec').catch(() => null);
  if (!check || check.ok) return null;
  return failureToEnvError({ ok: false, error: 'syntax', msg: check.message, line: check.line }, 'load', 'load');
}

/**
 * For an imported file: no `Env` anywhere in its text means no class it defines by name
 * can end in `Env`, so it is refused as `no_env_class` without running it. A class built under a
 * computed name is not looked for (docs/method.md section 5). Null when `Env` appears.
 */
export function missingEnvName(code: string): EnvError | null {
  if (code.includes('Env')) return null;
  return envError('no_env_class', 'load', {
    expected: "a module-level class whose name ends in 'Env'",
    seen: "no 'Env' anywhere in the file (checked before running it)",
    fix: "name the environment class like 'MazeEnv'",
  });
}
