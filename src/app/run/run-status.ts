import type { RunMeta } from '../../core/ports/store-port.ts';
import type { ActiveStatus, AnnouncedState } from './run-announcement.ts';

/**
 * A run's status as every view shows it. `running`, `paused`, `stopping`: a tab holds the run and
 * works on it; `interrupted`: the store says running but no tab holds it (the tab closed or crashed
 * mid-epoch); `aborted`: a person stopped it; `stopped`: storage filled up; `paused` without a tab
 * holding it: a run stored paused (by an older version, or imported while it ran).
 */
export type RunStatusWord =
  'new' | ActiveStatus | 'interrupted' | 'aborted' | 'stopped' | 'paused' | 'completed' | 'failed';

/** The status, and which tab holds the run (null: none). */
export interface RunStatusView {
  word: RunStatusWord;
  where: 'this tab' | 'another tab' | null;
}

/** The run this tab holds, and what it is doing with it. */
export interface HeldHere {
  runId: string;
  status: ActiveStatus;
}

/** The runs other tabs hold, each with what its tab last announced (null: nothing heard yet). */
export type HeldElsewhere = Readonly<Record<string, Pick<AnnouncedState, 'status'> | null>>;

/**
 * The one status of a run, from its stored meta, the run this tab holds, and the runs other tabs
 * hold. The tab holding a run knows best; a run nobody holds is what the store says, except that a
 * stored `running` means the tab that ran it is gone (interrupted), and a run with every planned
 * epoch committed is completed.
 */
export function runStatus(
  meta: Pick<RunMeta, 'id' | 'status' | 'epochsCompleted' | 'epochsPlanned'>,
  here: HeldHere | null,
  elsewhere: HeldElsewhere,
): RunStatusView {
  if (here?.runId === meta.id) return { word: here.status, where: 'this tab' };
  if (meta.id in elsewhere) {
    const announced = elsewhere[meta.id]?.status;
    const stored = storedWord(meta);
    return {
      word: announced ?? (stored === 'interrupted' || stored === 'new' ? 'running' : stored),
      where: 'another tab',
    };
  }
  return { word: storedWord(meta), where: null };
}

function storedWord(meta: Pick<RunMeta, 'status' | 'epochsCompleted' | 'epochsPlanned'>): RunStatusWord {
  if (meta.status === 'failed') return 'failed';
  if (meta.epochsCompleted >= meta.epochsPlanned && meta.epochsPlanned > 0) return 'completed';
  return meta.status === 'running' ? 'interrupted' : meta.status;
}

/** The status in words for a list: `running in another tab`, `interrupted`, `completed`. */
export function statusText(view: RunStatusView): string {
  return view.where === 'another tab' ? `${view.word} in another tab` : view.word;
}
