import { suiteDigestText, type Suite, type SuiteEnvironment } from '../../core/eval/suite.ts';
import { validateEnvironment, type ValidationOptions } from '../../core/env/validate-env.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import { baseName, type HashText, type ImportFile, type ImportProblem } from '../export/files.ts';
import { failureReason } from './import-envs.ts';
import { manifestRows, parsePoolFiles, type ImportCandidate } from './pool-import.ts';

/** What a suite's environments are validated with before use (none: taken as they are, as the built-in suite is). */
export interface SuiteValidation {
  sandbox: SandboxRuntime;
  options: ValidationOptions;
}

/** A suite read from files, and the entries left out or taken with a warning. */
export interface ReadSuite {
  suite: Suite;
  problems: ImportProblem[];
}

/** The id of a suite environment read from `source` (a path): its file name without `.py`. */
export function suiteEnvironmentId(source: string): string {
  return baseName(source).replace(/\.py$/, '');
}

/**
 * Suite environments from import candidates, in their order: ids from the file names, titles from
 * `titles` (by file name). A candidate whose id an earlier one already has is left out, with a problem.
 */
export function suiteEnvironments(
  candidates: readonly ImportCandidate[],
  titles: ReadonlyMap<string, string> = new Map(),
): { environments: SuiteEnvironment[]; problems: ImportProblem[] } {
  const environments: SuiteEnvironment[] = [];
  const problems: ImportProblem[] = [];
  for (const candidate of candidates) {
    const id = suiteEnvironmentId(candidate.source);
    if (environments.some((env) => env.id === id)) {
      problems.push({
        source: candidate.source,
        reason: `expected one environment per file name, saw a second ${id}.py; left out. Fix: rename one of them`,
        kept: false,
      });
      continue;
    }
    environments.push({
      id,
      skill: candidate.skill,
      code: candidate.code,
      title: titles.get(baseName(candidate.source)) ?? null,
    });
  }
  return { environments, problems };
}

/** A named suite of these environments, with the SHA-256 of their ids, skills and code. */
export async function makeSuite(
  name: string,
  environments: readonly SuiteEnvironment[],
  hashText: HashText,
): Promise<Suite> {
  return { name, sha256: await hashText(suiteDigestText(environments)), environments: [...environments] };
}

/** Validates each environment as code (verbatim), one after another: the valid ones, and a problem with the validator's reason for each other. */
export async function validateSuiteEnvironments(
  environments: readonly SuiteEnvironment[],
  validation: SuiteValidation,
): Promise<{ valid: SuiteEnvironment[]; problems: ImportProblem[] }> {
  const valid: SuiteEnvironment[] = [];
  const problems: ImportProblem[] = [];
  for (const env of environments) {
    const report = await validateEnvironment(env.code, validation.sandbox, { ...validation.options, source: 'code' });
    if (report.ok) valid.push(env);
    else problems.push({ source: env.id, reason: failureReason(report), kept: false });
  }
  return { valid, problems };
}

/**
 * Reads a suite from a SPADE pool's files (the `.py` games, with `manifest.jsonl` for skills and
 * titles and checksums when present), validating every environment when `validation` is given.
 * Throws when no environment is left.
 */
export async function readSuite(
  name: string,
  files: readonly ImportFile[],
  hashText: HashText,
  validation?: SuiteValidation,
): Promise<ReadSuite> {
  const pool = parsePoolFiles(files);
  const titles = new Map<string, string>();
  for (const [file, row] of manifestRows(files, []))
    if (typeof row.title === 'string' && row.title.trim() !== '') titles.set(file, row.title);
  const found = suiteEnvironments(pool.candidates, titles);
  const checked = validation
    ? await validateSuiteEnvironments(found.environments, validation)
    : { valid: found.environments, problems: [] };
  const problems = [...pool.problems, ...found.problems, ...checked.problems];
  if (checked.valid.length === 0) {
    const reasons = problems.filter((p) => !p.kept).map((p) => `${p.source}: ${p.reason}`);
    throw new Error(
      `the suite ${name} has no usable environment${reasons.length > 0 ? ` (${reasons.slice(0, 3).join('; ')})` : '; expected .py games in a folder or zip'}`,
    );
  }
  return { suite: await makeSuite(name, checked.valid, hashText), problems };
}
