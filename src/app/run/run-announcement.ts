import type { EpochStage, SpadeEvent } from '../../core/loop/events.ts';
import type { EvalProgress } from '../suites/eval-progress.ts';
import type { LiveEpoch } from './live-epoch.ts';

/** What a tab that holds a run is doing with it. */
export type ActiveStatus = 'running' | 'paused' | 'stopping';

/** How a tab's hold on a run ended. */
export type FinishedStatus = 'completed' | 'aborted' | 'failed' | 'stopped';

/** Where a run held by a tab stands: its status, the unit it is at, its committed epochs. */
export interface AnnouncedState {
  runId: string;
  status: ActiveStatus;
  stage: EpochStage | null;
  epochsCompleted: number;
}

/**
 * The messages tabs exchange about runs (one BroadcastChannel for the app). The tab that holds a
 * run's lock sends `state` on every change, `events` as its live epoch grows, and `finished` once
 * its store writes are done and its lock is released; any tab may `ask`, and hears `state` back, or
 * a `snapshot` (with the live epoch) when it asked for the live epoch.
 */
export type RunAnnouncement =
  | ({ type: 'state' } & AnnouncedState)
  | ({ type: 'snapshot'; live: LiveEpoch | null; evaluation: EvalProgress | null } & AnnouncedState)
  | { type: 'events'; runId: string; events: SpadeEvent[] }
  | { type: 'ask'; runId: string; live: boolean }
  | { type: 'finished'; runId: string; status: FinishedStatus };

const TYPES: ReadonlySet<string> = new Set(['state', 'snapshot', 'events', 'ask', 'finished']);

/** The message as an announcement, or null when it is not one (another version of the app, or something else on the channel). */
export function asAnnouncement(data: unknown): RunAnnouncement | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, runId } = data as { type?: unknown; runId?: unknown };
  if (typeof type !== 'string' || !TYPES.has(type) || typeof runId !== 'string') return null;
  if (type === 'events' && !Array.isArray((data as { events?: unknown }).events)) return null;
  return data as RunAnnouncement;
}
