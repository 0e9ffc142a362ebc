import type { ChatModel } from '../ports/chat-port.ts';
import type { EpochStage } from './events.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';

/** One unit of work: the stage it belongs to (for the gate), its place in the fixed order, and what it does. */
export interface WorkUnit {
  stage: EpochStage;
  /** Sort key: lower runs first (compared element by element); the order a sequential run would take. */
  order: readonly number[];
  run: () => Promise<void>;
  /**
   * Work done ahead of the unit, outside the concurrency limit (loading a play's environment into
   * an interpreter of its own): the scheduler starts it early, for at most its look-ahead of units
   * at once, earliest in `order` first, and starts the unit only once it has settled.
   */
  prepare?: () => Promise<void>;
  /** Called instead of `run` when a failure stopped the scheduler before the unit started, with that failure. */
  cancel?: (error: unknown) => void;
}

/** Called once the unit of work a gate let through has finished (a run controller's Step knows its unit is done). */
export type UnitDone = () => void;

/** Awaited before each unit of work starts (a run controller pauses here); may resolve to a UnitDone, called when that unit has finished. */
export type Gate = (stage: EpochStage) => Promise<UnitDone | void>;

/** How many units may run at once: the run's `concurrency`, bounded by what the model says it can take (1 when it says nothing). */
export function effectiveConcurrency(concurrency: number, model: Pick<ChatModel, 'maxConcurrency'>): number {
  const bound = Math.min(concurrency, model.maxConcurrency ?? 1);
  return Number.isFinite(bound) ? Math.max(1, Math.floor(bound)) : 1;
}

/** How many plays to load ahead of their turn: the interpreters the sandbox runs well at once (none when it does not say); the scheduler caps it at its limit. */
export function lookAheadOf(sandbox: Pick<SandboxRuntime, 'parallelism'>): number {
  return Math.max(0, Math.floor(sandbox.parallelism ?? 0));
}

/** True when sort key `a` comes before `b`. */
export function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}

/** Removes and returns the unit first in `order` (the list is not empty). */
export function earliest(units: WorkUnit[]): WorkUnit {
  let best = 0;
  for (let i = 1; i < units.length; i++) if (before(units[i]!.order, units[best]!.order)) best = i;
  return units.splice(best, 1)[0]!;
}
