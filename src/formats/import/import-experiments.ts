import { suiteDigestText, type SuiteEnvironment } from '../../core/eval/suite.ts';
import type { RunState } from '../../core/loop/epoch.ts';
import { lessonTextProblems, type Lesson, type PlayTally } from '../../core/playbook/lesson.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { isObject, type HashText, type ImportProblem } from '../export/files.ts';
import { codeProblem } from './pool-import.ts';
import { isObjectPropertyName } from './import-limits.ts';

const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function isTally(v: unknown): v is PlayTally {
  return isObject(v) && isCount(v.plays) && isCount(v.wins) && v.wins <= v.plays;
}

/** Why a stored lesson cannot be used as it is, or null when it can. */
function lessonProblem(v: unknown): string | null {
  if (!isObject(v)) return 'expected a lesson object';
  if (typeof v.id !== 'string' || typeof v.skill !== 'string' || isObjectPropertyName(v.skill))
    return 'expected an id and a skill name';
  if (typeof v.text !== 'string') return 'expected the lesson text';
  const text = lessonTextProblems(v.text);
  if (text.length > 0) return text.join('; ');
  if (v.origin !== 'learned' && v.origin !== 'user') return 'expected origin "learned" or "user"';
  if (v.status !== 'active' && v.status !== 'retired') return 'expected status "active" or "retired"';
  if (!(v.sourceEnvId === null || typeof v.sourceEnvId === 'string') || !Number.isInteger(v.epoch))
    return 'expected a source environment (or null) and an epoch';
  if (!(v.baseline === null || isTally(v.baseline)) || !isTally(v.shown))
    return 'expected play tallies with wins no more than plays';
  if (!(v.retiredBecause === null || typeof v.retiredBecause === 'string'))
    return 'expected retiredBecause to be text or null';
  return null;
}

/**
 * An imported run state with its playbook checked: every lesson must have the shape this app
 * writes and text a person could have written (lessonTextProblems); others are dropped, each
 * with its reason. Per-skill tallies that are not well-formed are dropped as a whole.
 */
export function importedPlaybookState(state: RunState, source: string, problems: ImportProblem[]): RunState {
  const raw = state as RunState & { playbook?: unknown; skillTallies?: unknown };
  let next: RunState = state;
  if (raw.playbook !== undefined) {
    const list = Array.isArray(raw.playbook) ? raw.playbook : [];
    if (!Array.isArray(raw.playbook))
      problems.push({
        source,
        reason: 'playbook is not a list of lessons; the run continues with an empty playbook',
        kept: true,
      });
    const lessons = list.filter((lesson: unknown, i) => {
      const problem = lessonProblem(lesson);
      if (problem)
        problems.push({
          source: `${source} playbook[${i}]`,
          reason: `${problem}; this lesson is left out`,
          kept: false,
        });
      return problem === null;
    }) as Lesson[];
    next = { ...next, playbook: lessons };
  }
  if (
    raw.skillTallies !== undefined &&
    !(
      isObject(raw.skillTallies) &&
      Object.entries(raw.skillTallies).every(([skill, t]) => !isObjectPropertyName(skill) && isTally(t))
    )
  ) {
    problems.push({
      source,
      reason:
        'skillTallies are not per-skill play tallies; dropped, so a lesson shown next gets no baseline until its skill is played again',
      kept: true,
    });
    const { skillTallies: _dropped, ...rest } = next;
    next = rest;
  }
  return next;
}

/** The well-formed environments of an imported list that pass `validate`, each other one reported under `label[i]`. */
async function checkedEnvironments(
  list: unknown,
  label: string,
  problems: ImportProblem[],
  validate: (code: string) => Promise<string | null>,
): Promise<SuiteEnvironment[]> {
  const environments: SuiteEnvironment[] = [];
  for (const [i, env] of (Array.isArray(list) ? list : []).entries()) {
    const problem = !isPoolEnvironment(env)
      ? 'expected {id, skill, code, title}'
      : (codeProblem(env.code) ?? (await validate(env.code)));
    if (problem) problems.push({ source: `${label}[${i}]`, reason: `${problem}; left out`, kept: false });
    else environments.push({ id: env.id, skill: env.skill, code: env.code, title: env.title });
  }
  return environments;
}

/**
 * An imported run meta with its held-out suite checked: a suite kept whole (an imported pool)
 * keeps only well-formed environments that validate, with its sha256 taken again; a source run
 * must be named by id and a whole epoch. A suite that is malformed, or has nothing left, is
 * dropped (the run then evaluates on the built-in suite, and says so).
 */
export async function importedEvalSuite(
  meta: RunMeta,
  hashText: HashText,
  problems: ImportProblem[],
  validate: (code: string) => Promise<string | null>,
): Promise<RunMeta> {
  const raw = (meta as { evalSuite?: unknown }).evalSuite;
  if (raw === undefined) return meta;
  const { evalSuite: _raw, ...rest } = meta;
  const drop = (reason: string) => (
    problems.push({
      source: 'run.json evalSuite',
      reason: `${reason}; the run evaluates on the built-in suite instead`,
      kept: true,
    }),
    rest
  );
  if (!isObject(raw) || typeof raw.name !== 'string' || typeof raw.sha256 !== 'string')
    return drop('expected a suite name and sha256');
  const source = raw.source;
  if (source === undefined) return { ...rest, evalSuite: { name: raw.name, sha256: raw.sha256 } };
  if (
    isObject(source) &&
    source.kind === 'run' &&
    typeof source.runId === 'string' &&
    Number.isInteger(source.epoch) &&
    (source.epoch as number) >= 1
  ) {
    return {
      ...rest,
      evalSuite: {
        name: raw.name,
        sha256: raw.sha256,
        source: { kind: 'run', runId: source.runId, epoch: source.epoch as number },
      },
    };
  }
  if (!isObject(source) || source.kind !== 'pool') return drop('expected the suite to come from a run or a pool');
  const environments = await checkedEnvironments(source.environments, 'run.json evalSuite', problems, validate);
  if (environments.length === 0) return drop('no usable environment is left in the held-out suite');
  return {
    ...rest,
    evalSuite: {
      name: raw.name,
      sha256: await hashText(suiteDigestText(environments)),
      source: { kind: 'pool', environments },
    },
  };
}

/** The code of every usable environment of an imported run's fixed pool and held-out pool suite, so they are validated with the run's own, in parallel and counted in the progress. */
export function poolCodes(meta: RunMeta): string[] {
  const raw = meta as { fixedPool?: unknown; evalSuite?: unknown };
  const suite =
    isObject(raw.evalSuite) && isObject(raw.evalSuite.source) && raw.evalSuite.source.kind === 'pool'
      ? raw.evalSuite.source.environments
      : undefined;
  const pool = isObject(raw.fixedPool) ? raw.fixedPool.environments : undefined;
  return [pool, suite]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .flatMap((env: unknown) => (isPoolEnvironment(env) && codeProblem(env.code) === null ? [env.code] : []));
}

function isPoolEnvironment(v: unknown): v is SuiteEnvironment {
  return (
    isObject(v) &&
    typeof v.id === 'string' &&
    typeof v.skill === 'string' &&
    !isObjectPropertyName(v.skill) &&
    typeof v.code === 'string' &&
    (v.title === null || typeof v.title === 'string')
  );
}

/**
 * An imported run meta with its fixed pool checked: environments of the wrong shape, with
 * unusable code or failing `validate` (the sandbox's verdict: null when it passes) are left out,
 * each with its reason, and the pool's sha256 is taken again of what is left. A pool with nothing
 * left is removed, so the run cannot continue as a fixed-pool run.
 */
export async function importedFixedPool(
  meta: RunMeta,
  hashText: HashText,
  problems: ImportProblem[],
  validate: (code: string) => Promise<string | null>,
): Promise<RunMeta> {
  const raw = (meta as { fixedPool?: unknown }).fixedPool;
  if (raw === undefined) return meta;
  const environments = await checkedEnvironments(
    isObject(raw) ? raw.environments : undefined,
    'run.json fixedPool',
    problems,
    validate,
  );
  const { fixedPool: _raw, ...rest } = meta;
  if (environments.length === 0) {
    problems.push({
      source: 'run.json fixedPool',
      reason:
        'no usable environment is left in the fixed pool; the run is kept but cannot continue as a fixed-pool run',
      kept: true,
    });
    return rest;
  }
  const name = isObject(raw) && typeof raw.name === 'string' ? raw.name : 'imported pool';
  return { ...rest, fixedPool: { name, sha256: await hashText(suiteDigestText(environments)), environments } };
}
