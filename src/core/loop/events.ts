import type { ChatPurpose } from '../ports/chat-port.ts';
import type { ValidationReport } from '../env/validate-env.ts';
import type { Arm, Episode, EnvStats, EpochMetrics, Turn } from '../records.ts';
import type { EvalPlay, EvalRecord } from '../eval/eval-record.ts';
import type { LessonOutcome } from '../playbook/learn-lessons.ts';
import type { RequestBudget } from '../budget/fit-request.ts';
import type { DesignerScaleParts } from '../scoring/advantages.ts';

/** Where a streamed token belongs. */
export interface TokenSource {
  purpose: ChatPurpose;
  slot: number;
  envId: string;
  arm?: Arm;
  playIndex?: number;
  rollout?: number;
}

/** Progress of an epoch, as typed events (the core's only output channel besides its return value). */
export type SpadeEvent =
  | { type: 'epoch_started'; epoch: number; slots: Array<{ slot: number; skill: string }> }
  | {
      type: 'design_started';
      epoch: number;
      slot: number;
      attempt: number;
      skill: string;
      docId: string | null;
      repair: boolean;
    }
  | { type: 'token'; epoch: number; source: TokenSource; delta: string }
  | { type: 'design_replied'; epoch: number; slot: number; attempt: number }
  | { type: 'validated'; epoch: number; slot: number; attempt: number; report: ValidationReport }
  | { type: 'slot_rejected'; epoch: number; slot: number; envId: string }
  | { type: 'hinted'; epoch: number; envId: string; hint: string | null; note: string | null }
  | {
      type: 'turn';
      epoch: number;
      envId: string;
      arm: Arm;
      playIndex: number;
      rollout: number;
      turnIndex: number;
      turn: Turn;
    }
  | { type: 'episode'; epoch: number; episode: Episode }
  | {
      type: 'scored';
      epoch: number;
      envId: string;
      stats: EnvStats | null;
      note: string | null;
      scale: DesignerScaleParts;
    }
  | { type: 'epoch_completed'; epoch: number; metrics: EpochMetrics }
  | { type: 'pool_environment'; epoch: number; slot: number; envId: string; poolId: string; skill: string }
  | { type: 'lesson'; epoch: number; outcome: LessonOutcome }
  | { type: 'prompt_fitted'; epoch: number; purpose: ChatPurpose; budget: RequestBudget }
  | { type: 'eval_started'; epoch: number; afterEpochs: number; total: number }
  | { type: 'eval_play'; epoch: number; afterEpochs: number; play: EvalPlay; done: number; total: number }
  | { type: 'eval_completed'; epoch: number; record: EvalRecord };

/** The stages an epoch goes through, in order (a run controller may pause before each). */
export type EpochStage = 'design' | 'hint' | 'play' | 'score' | 'lesson' | 'evaluate';
