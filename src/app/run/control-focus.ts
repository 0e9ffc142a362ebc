import type { ControllerStatus } from './run-controller.svelte.ts';

/** A run control that can take the keyboard focus. */
export type RunControl = 'start' | 'pause' | 'resume' | 'more';

/**
 * Where the keyboard focus goes once a run's status has changed under a control the person used
 * (the control they pressed is now disabled): running, to Pause; paused, to Resume; completed, to
 * "more epochs"; stopped, failed, aborted or idle, to Start/Continue when it can start; `null`
 * while the run is stopping (the focus waits for the next status).
 */
export function focusTarget(status: ControllerStatus, canStart: boolean): RunControl | null {
  if (status === 'running') return 'pause';
  if (status === 'paused') return 'resume';
  if (status === 'completed') return 'more';
  if (status === 'stopping') return null;
  return canStart ? 'start' : null;
}
