import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toImportFiles } from '../adapters/store/import-read.ts';
import { hashText } from '../adapters/store/sha256.ts';
import type { Config } from '../core/config.ts';
import type { Suite } from '../core/eval/suite.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { ImportProblem } from '../formats/export/files.ts';
import { readSuite } from '../formats/import/suite-import.ts';
import { UsageError } from './args.ts';
import { readInputs } from './import-command.ts';

/** The built-in held-out suite shipped with the app (a SPADE pool folder). */
export const BUILTIN_SUITE = fileURLToPath(new URL('../../public/suites/builtin/', import.meta.url));

/**
 * Loads the suite `spec` names: `builtin` (the shipped suite, taken as it is), or a SPADE pool as a
 * zip or folder whose every environment is first validated in the sandbox with the config's limits
 * (each one left out is printed with its reason). Throws when nothing usable is left.
 */
export async function loadSuite(spec: string, config: Config, runtime: () => SandboxRuntime, print: (line: string) => void): Promise<Suite> {
  const builtin = spec === 'builtin';
  const path = builtin ? BUILTIN_SUITE : spec;
  const info = await stat(path).catch(() => null);
  if (!info) throw builtin ? new Error(`the built-in suite is missing: expected a pool folder at ${BUILTIN_SUITE}`) : new UsageError(`cannot read the suite ${spec}`);
  const read = await readInputs(path, info.isDirectory());
  const files = await toImportFiles(read.files);
  const validation = builtin
    ? undefined
    : { sandbox: runtime(), options: { maxTurns: config.maxTurns, totalTimeoutMs: config.validateTimeoutMs, callTimeoutMs: Math.min(config.stepTimeoutMs, config.validateTimeoutMs) } };
  const name = builtin ? 'builtin' : basename(path);
  const report = (problems: readonly ImportProblem[]) => problems.forEach((p) => print(`${p.kept ? 'warning' : 'skipped'}  suite ${name}: ${p.source}: ${p.reason}`));
  report([...read.problems, ...files.problems]);
  const { suite, problems } = await readSuite(name, files.files, hashText, validation);
  report(problems);
  return suite;
}
