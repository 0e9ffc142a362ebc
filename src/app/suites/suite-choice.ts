import { hashText } from '../../adapters/store/sha256.ts';
import type { Suite } from '../../core/eval/suite.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import { runPoolSuite } from '../../formats/import/run-suite.ts';

/** A held-out suite as a person chooses it: the built-in suite, a stored run's pool at an epoch (app count, 1 the first), or an imported pool already validated. */
export type SuiteChoice =
  { kind: 'builtin' } | { kind: 'run'; runId: string; epoch: number } | { kind: 'pool'; suite: Suite };

/** The built-in suite as a choice. */
export const BUILTIN_CHOICE: SuiteChoice = { kind: 'builtin' };

/** What loading a chosen suite reads: the built-in suite, and the stored runs. */
export interface SuiteSources {
  builtin: () => Promise<Suite>;
  store: Pick<RunStore, 'loadRun' | 'queryEnvironments'>;
}

/** Thrown when a chosen run pool's run is no longer stored. */
export class SuiteRunMissing extends Error {
  constructor(readonly runId: string) {
    super(`The run ${runId} whose pool is the held-out suite is no longer stored.`);
    this.name = 'SuiteRunMissing';
  }
}

/** Loads the suite a choice names; a run's pool is read from the store (its environments were validated when designed or imported). */
export async function loadChosenSuite(choice: SuiteChoice, sources: SuiteSources): Promise<Suite> {
  if (choice.kind === 'builtin') return sources.builtin();
  if (choice.kind === 'pool') return choice.suite;
  const loaded = await sources.store.loadRun(choice.runId);
  if (!loaded) throw new SuiteRunMissing(choice.runId);
  const { suite } = await runPoolSuite(
    loaded.meta,
    await sources.store.queryEnvironments(choice.runId),
    choice.epoch,
    hashText,
  );
  return suite;
}

/** What a run records of its scheduled suite: name and digest, and where it came from unless it is the built-in suite. */
export function recordedSuite(suite: Suite, choice: SuiteChoice): NonNullable<RunMeta['evalSuite']> {
  const base = { name: suite.name, sha256: suite.sha256 };
  if (choice.kind === 'run') return { ...base, source: { kind: 'run', runId: choice.runId, epoch: choice.epoch } };
  if (choice.kind === 'pool') return { ...base, source: { kind: 'pool', environments: suite.environments } };
  return base;
}

/** The choice a run's recorded suite names again (the built-in suite when it records no source). */
export function choiceOf(recorded: RunMeta['evalSuite']): SuiteChoice {
  const source = recorded?.source;
  if (source?.kind === 'run') return { kind: 'run', runId: source.runId, epoch: source.epoch };
  if (source?.kind === 'pool')
    return {
      kind: 'pool',
      suite: { name: recorded!.name, sha256: recorded!.sha256, environments: source.environments },
    };
  return BUILTIN_CHOICE;
}

/** The code of every environment a run trains on: those it played (not rejected) and its fixed pool, trimmed. */
export function trainingCodes(
  meta: Pick<RunMeta, 'fixedPool'>,
  environments: readonly EnvironmentRecord[],
): Set<string> {
  const played = environments.filter((env) => env.status !== 'rejected').map((env) => env.code.trim());
  return new Set([...played, ...(meta.fixedPool?.environments ?? []).map((env) => env.code.trim())]);
}

/** Ids of the suite environments whose code is also in the run's training environments (they are not held out from it). */
export function suiteOverlap(suite: Suite, training: ReadonlySet<string>): string[] {
  return suite.environments.filter((env) => training.has(env.code.trim())).map((env) => env.id);
}

/** The training codes of a stored run (see trainingCodes). */
export async function storedTrainingCodes(
  store: Pick<RunStore, 'queryEnvironments'>,
  meta: RunMeta,
): Promise<Set<string>> {
  return trainingCodes(meta, await store.queryEnvironments(meta.id));
}

/** The suite a run's scheduled evaluations play now, what to record when that differs from what it recorded (else null), and a notice saying why. */
export interface ScheduledSuite {
  suite: Suite;
  record: NonNullable<RunMeta['evalSuite']> | null;
  notice: string | null;
}

/**
 * Loads the suite a run recorded for its scheduled evaluations (the built-in suite when it recorded
 * none). When the suite's digest changed since, the new one is recorded with a notice; when its
 * source run is no longer stored, the built-in suite takes its place, with a notice.
 */
export async function scheduledSuite(meta: Pick<RunMeta, 'evalSuite'>, sources: SuiteSources): Promise<ScheduledSuite> {
  const recorded = meta.evalSuite;
  const choice = choiceOf(recorded);
  try {
    const suite = await loadChosenSuite(choice, sources);
    if (recorded?.sha256 === suite.sha256) return { suite, record: null, notice: null };
    const notice = recorded
      ? `The held-out suite changed since this run last recorded it (${recorded.name} ${recorded.sha256.slice(0, 12)}, now ${suite.sha256.slice(0, 12)}); later evaluations use the new one, and the held-out chart shows only the suite of the latest scheduled evaluation.`
      : null;
    return { suite, record: recordedSuite(suite, choice), notice };
  } catch (error) {
    if (!(error instanceof SuiteRunMissing)) throw error;
    const suite = await sources.builtin();
    const notice = `This run's held-out suite (${recorded!.name}) was taken from the run ${error.runId}, which is no longer stored; later evaluations use the built-in suite, and the held-out chart shows only the suite of the latest scheduled evaluation.`;
    return { suite, record: recordedSuite(suite, BUILTIN_CHOICE), notice };
  }
}
