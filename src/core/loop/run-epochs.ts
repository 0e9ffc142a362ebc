import type { Config } from '../config.ts';
import { runEpoch, type EpochPorts, type EpochResult, type RunState } from './epoch.ts';

/** What a run of several epochs needs: one epoch's ports, where each epoch is committed, and what hears of it. */
export interface RunEpochsPorts extends EpochPorts {
  /** Stores one epoch's result atomically (a RunStore's `commitEpoch` for the run); the next epoch starts after it. */
  commit: (result: EpochResult) => Promise<void>;
  /** Called after each commit; the next epoch starts once what it returns has settled (the app holds the final scores on screen there). */
  committed?: (result: EpochResult) => void | Promise<void>;
}

/**
 * Runs `epochs` epochs from `state` (a fresh run's initial state, or the state a store loaded to
 * continue from, whose model snapshot is restored first), committing each before the next; returns
 * the state after the last. An abort (`ports.signal`) rejects with EpochAbortedError and discards
 * the epoch in progress; a failed commit rejects with the store's error. Committed epochs stay.
 */
export async function runEpochs(
  ports: RunEpochsPorts,
  state: RunState,
  config: Config,
  epochs: number,
): Promise<RunState> {
  if (state.modelSnapshot !== undefined) ports.model.restore?.(state.modelSnapshot);
  const end = state.epoch + epochs;
  let current = state;
  while (current.epoch < end) {
    const result = await runEpoch(ports, current, config);
    await ports.commit(result);
    current = result.nextState;
    await ports.committed?.(result);
  }
  return current;
}
