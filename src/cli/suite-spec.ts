import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { toImportFiles } from '../adapters/store/import-read.ts';
import { hashText } from '../adapters/store/sha256.ts';
import type { Config } from '../core/config.ts';
import type { Suite } from '../core/eval/suite.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { ImportProblem } from '../formats/export/files.ts';
import { CONFIG_FILE } from '../formats/export/run-files.ts';
import { runPoolSuite, runSuiteEpochProblem } from '../formats/import/run-suite.ts';
import { readSuite, type SuiteValidation } from '../formats/import/suite-import.ts';
import { UsageError } from './args.ts';
import { readInputs } from './import-command.ts';

/** The built-in held-out suite shipped with the app (a SPADE pool folder). */
export const BUILTIN_SUITE = fileURLToPath(new URL('../../public/suites/builtin/', import.meta.url));

/** True when `dir` is a run directory (`spade run --out` or `spade import` wrote it: config.json and environments.jsonl). */
function isRunDirectory(dir: string): boolean {
  return existsSync(join(dir, CONFIG_FILE)) && existsSync(join(dir, 'environments.jsonl'));
}

/** What a suite spec names: the built-in suite, a pool (zip or folder), or a run directory's pool (at an epoch, or at its last committed one). */
type SuiteSource =
  | { kind: 'builtin' }
  | { kind: 'pool'; path: string; folder: boolean }
  | { kind: 'run'; dir: string; epoch: number | null };

async function sourceOf(spec: string): Promise<SuiteSource> {
  if (spec === 'builtin') return { kind: 'builtin' };
  const info = await stat(spec).catch(() => null);
  if (info)
    return info.isDirectory() && isRunDirectory(spec)
      ? { kind: 'run', dir: spec, epoch: null }
      : { kind: 'pool', path: spec, folder: info.isDirectory() };
  const at = /^(.+)@(\d+)$/.exec(spec);
  if (at && (await stat(at[1]!).catch(() => null))) {
    if (!isRunDirectory(at[1]!))
      throw new UsageError(
        `the suite ${spec}: @N freezes a run directory's pool at epoch N, and ${at[1]} is not a run directory (expected config.json and environments.jsonl, as spade run --out writes)`,
      );
    return { kind: 'run', dir: at[1]!, epoch: Number(at[2]) };
  }
  throw new UsageError(`cannot read the suite ${spec}`);
}

/** A run directory's pool at `epoch` (app count; null: its last committed epoch), every environment validated again (the files are untrusted). */
async function runDirectorySuite(
  spec: string,
  dir: string,
  epoch: number | null,
  validation: SuiteValidation,
  report: (name: string, problems: readonly ImportProblem[]) => void,
): Promise<Suite> {
  const store = new FileRunStore(dir);
  const [meta] = await store.listRuns();
  if (!meta) throw new UsageError(`the suite ${spec}: ${dir} holds no run`);
  const at = epoch ?? meta.epochsCompleted;
  const problem = runSuiteEpochProblem(meta, at);
  if (problem) throw new UsageError(`the suite ${spec}: ${problem}`);
  const { suite, problems } = await runPoolSuite(
    meta,
    await store.queryEnvironments(meta.id),
    at,
    hashText,
    validation,
  );
  report(suite.name, problems);
  return suite;
}

/**
 * Loads the suite `spec` names: `builtin` (the shipped suite, taken as it is); a SPADE pool as a
 * zip or folder; or a run directory as `DIR` (its pool at its last committed epoch) or `DIR@N`
 * (frozen at epoch N, counted as the app shows epochs: 1 is the first). Every environment of a
 * pool or run is first validated in the sandbox with the config's limits (each one left out is
 * printed with its reason). Throws when nothing usable is left.
 */
export async function loadSuite(
  spec: string,
  config: Config,
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<Suite> {
  const source = await sourceOf(spec);
  const report = (name: string, problems: readonly ImportProblem[]) =>
    problems.forEach((p) => print(`${p.kept ? 'warning' : 'skipped'}  suite ${name}: ${p.source}: ${p.reason}`));
  const validation = () => ({
    sandbox: runtime(),
    options: {
      maxTurns: config.maxTurns,
      totalTimeoutMs: config.validateTimeoutMs,
      callTimeoutMs: Math.min(config.stepTimeoutMs, config.validateTimeoutMs),
      nonce: config.seed,
    },
  });
  if (source.kind === 'run') return runDirectorySuite(spec, source.dir, source.epoch, validation(), report);
  const builtin = source.kind === 'builtin';
  const path = builtin ? BUILTIN_SUITE : source.path;
  if (builtin && !(await stat(path).catch(() => null)))
    throw new Error(`the built-in suite is missing: expected a pool folder at ${BUILTIN_SUITE}`);
  const read = await readInputs(path, builtin || source.folder);
  const files = await toImportFiles(read.files);
  const name = builtin ? 'builtin' : basename(path);
  report(name, [...read.problems, ...files.problems]);
  const { suite, problems } = await readSuite(name, files.files, hashText, builtin ? undefined : validation());
  report(name, problems);
  return suite;
}
