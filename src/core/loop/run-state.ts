import type { MemoryRecord } from './memory.ts';
import type { SkillAverages } from '../scoring/designer-reward.ts';
import type { Lesson, PlayTally } from '../playbook/lesson.ts';

/** What carries over from one epoch to the next: plain data. */
export interface RunState {
  /** Index of the next epoch to run. */
  epoch: number;
  memory: MemoryRecord[];
  skillAverages: Record<string, SkillAverages>;
  /** The model's `snapshot()` after the epoch and its evaluation (scripted models), restored on resume. */
  modelSnapshot?: unknown;
  /** The agent's playbook (runs that keep one; docs/method.md section 7). */
  playbook?: Lesson[];
  /** Each skill's unhinted plays in the last epoch that played it: the baseline of a lesson first shown next. */
  skillTallies?: Record<string, PlayTally>;
}

/** The initial state of a run. */
export const INITIAL_RUN_STATE: RunState = { epoch: 0, memory: [], skillAverages: {} };
