// Small synthetic environments for the explorer's Node tests (no sandbox needed: only the
// fields the explorer reads are meaningful).
import type { EnvironmentRecord, EnvStats } from '../../src/core/records.ts';

const SKILLS = ['Logical Deduction', 'Optimization', 'Spatial Reasoning'];

/** Environment `slot` of `epoch`: valid with the given scores, or rejected at probe when `scores` is null. */
export function explorerEnv(
  epoch: number,
  slot: number,
  scores: Pick<EnvStats, 'regret' | 'winRate' | 'designerReward'> | null,
  skill = SKILLS[(epoch + slot) % 3]!,
): EnvironmentRecord {
  const ok = scores !== null;
  const stats: EnvStats | null = scores
    ? {
        rHint: 0,
        rNoHint: 0,
        fractionWon: scores.winRate,
        designerAdvantage: 0,
        hung: false,
        designerGroupSize: 1,
        droppedPlays: 0,
        turnsToWin: null,
        ...scores,
      }
    : null;
  return {
    id: `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`,
    epoch,
    slot,
    skill,
    difficulty: 'medium',
    docId: null,
    status: ok ? 'valid' : 'rejected',
    code: 'class XEnv: pass',
    attempts: [
      {
        attempt: 0,
        repair: false,
        messages: [],
        reply: '',
        code: 'class XEnv: pass',
        usage: { promptTokens: 0, completionTokens: 0 },
        validation: ok
          ? { ok: true, stage: null, code: null, message: null, className: 'XEnv', repairedLines: [] }
          : {
              ok: false,
              stage: 'probe',
              code: 'step_bad_return',
              message: 'Expected step() to return a 5-tuple. Saw a tuple of 3 items. Fix: return all five.',
              className: 'XEnv',
              repairedLines: [],
            },
      },
    ],
    memoryShown: { positives: [], negative: null },
    hint: ok ? 'a hint' : null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats,
  };
}
