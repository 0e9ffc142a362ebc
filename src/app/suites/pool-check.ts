import { DEFAULT_VALIDATION, type ValidationOptions } from '../../core/env/validate-env.ts';
import type { Suite, SuiteEnvironment } from '../../core/eval/suite.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { ImportProblem } from '../../formats/export/files.ts';
import { makeSuite, readSuite, validateSuiteEnvironments } from '../../formats/import/suite-import.ts';
import { hashText } from '../../adapters/store/sha256.ts';
import { validationNonce } from '../../adapters/validation-nonce.ts';
import type { PoolFiles } from './suite-source.ts';

/** A pool checked for use as a fixed training pool or a held-out suite: the environments kept, and every entry left out with the reason. */
export interface CheckedPool {
  /** The pool of the valid environments; null when none was valid. */
  pool: Suite | null;
  /** Files and environments left out, and warnings about those kept (`kept: true`). */
  problems: ImportProblem[];
}

/** What checking a pool needs. */
export interface PoolCheckPorts {
  sandbox: SandboxRuntime;
  /** The held-out suite: an environment with the same code is left out (it would leak the test into training). */
  heldOut: Suite | null;
  validation?: ValidationOptions;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Checks a pool for a fixed-pool run (or as a held-out suite, with `heldOut` null): reads it with
 * the suite reader, leaves out any environment that is a held-out suite environment, and validates every other one in the sandbox as code
 * (verbatim), leaving out the invalid ones, each with its reason. Throws when the files hold no game.
 */
export async function checkPool(name: string, read: PoolFiles, ports: PoolCheckPorts): Promise<CheckedPool> {
  const found = await readSuite(name, read.files, hashText);
  const problems = [...read.problems, ...found.problems];
  const heldOut = new Map((ports.heldOut?.environments ?? []).map((env) => [env.code.trim(), env.id]));
  const environments = found.suite.environments;
  const kept: SuiteEnvironment[] = [];
  for (const [i, env] of environments.entries()) {
    const suiteId = heldOut.get(env.code.trim());
    if (suiteId !== undefined) {
      problems.push({
        source: env.id,
        reason: `the same code as the held-out environment ${suiteId}; a training pool must not hold the games the agent is tested on`,
        kept: false,
      });
    } else {
      const checked = await validateSuiteEnvironments([env], {
        sandbox: ports.sandbox,
        options: ports.validation ?? { ...DEFAULT_VALIDATION, nonce: validationNonce() },
      });
      kept.push(...checked.valid);
      problems.push(...checked.problems);
    }
    ports.onProgress?.(i + 1, environments.length);
  }
  return { pool: kept.length > 0 ? await makeSuite(name, kept, hashText) : null, problems };
}
