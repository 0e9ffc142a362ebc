import type { Config } from '../../core/config.ts';
import type { Suite } from '../../core/eval/suite.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { BUILTIN_CHOICE, recordedSuite, type SuiteChoice } from '../suites/suite-choice.ts';

/** Settings of a new run. */
export interface NewRun {
  name: string;
  config: Config;
  modelId: string;
  epochsPlanned: number;
  /** The environments a fixed-pool run plays instead of designing (SPADE's `fixed_env` baseline); absent: the designer. */
  fixedPool?: Suite;
  /** The held-out suite of its scheduled evaluations (absent: the built-in suite). */
  evalSuite?: SuiteChoice;
}

/** The stored meta of a new run created at `now`: its own copy of the config, `evalSuite` (the chosen suite, loaded) recorded with where it came from, a fixed pool whole. */
export function newRunMeta(input: NewRun, evalSuite: Suite | null, now: number): RunMeta {
  return {
    id: `run-${now.toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`,
    name: input.name,
    createdAt: now,
    updatedAt: now,
    config: JSON.parse(JSON.stringify(input.config)) as Config,
    modelId: input.modelId,
    status: 'new',
    epochsCompleted: 0,
    epochsPlanned: input.epochsPlanned,
    lastError: null,
    ...(evalSuite ? { evalSuite: recordedSuite(evalSuite, input.evalSuite ?? BUILTIN_CHOICE) } : {}),
    ...(input.fixedPool
      ? {
          fixedPool: {
            name: input.fixedPool.name,
            sha256: input.fixedPool.sha256,
            environments: input.fixedPool.environments,
          },
        }
      : {}),
  };
}
