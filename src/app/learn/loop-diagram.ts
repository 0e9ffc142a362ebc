import type { LearnFigures } from './learn.ts';
import { counted } from '../shell/wording.ts';

/** One box of the loop diagram: what the stage does, and (with a run open) that run's figure. */
export interface LoopStage {
  id: 'designer' | 'validate' | 'hint' | 'nohint' | 'hinted' | 'regret' | 'memory';
  label: string;
  sentence: string;
  figure: string | null;
}

const f2 = (n: number) => n.toFixed(2);

// Rejected attempts as well as rejected slots: a slot whose retry passed still had an attempt rejected.
function validationFigure({ validCount, rejectedCount, failedAttempts }: LearnFigures): string {
  if (rejectedCount > 0)
    return `${validCount} valid, ${counted(rejectedCount, 'slot')} rejected; ${counted(Math.max(failedAttempts, rejectedCount), 'attempt')} rejected in all`;
  if (failedAttempts === 0) return `${validCount} valid, no attempt rejected`;
  return `${validCount} valid; ${counted(failedAttempts, 'rejected attempt')} tried again`;
}

/**
 * The stages of one epoch as the Learn page draws them, in order (the two play arms side by side);
 * with a run's lesson, each carries that run's own number.
 */
export function loopStages(lesson: LearnFigures | null): LoopStage[] {
  const stats = lesson?.example?.stats ?? null;
  const example = lesson?.example?.id ?? '';
  const last = lesson?.epochs.at(-1) ?? null;
  return [
    {
      id: 'designer',
      label: 'Designer',
      sentence:
        'The model writes a complete Python game for one skill, from a grounding document and remembered examples.',
      figure: lesson
        ? `${lesson.validCount + lesson.rejectedCount} slots designed in ${counted(lesson.epochs.length, 'epoch')}`
        : null,
    },
    {
      id: 'validate',
      label: 'Validate',
      sentence:
        'The sandbox loads the code, probes reset and step, and checks that a seed repeats; a failure names its stage and the designer tries again.',
      figure: lesson ? validationFigure(lesson) : null,
    },
    {
      id: 'hint',
      label: 'Hint',
      sentence:
        'The same model reads the valid code and writes a short hint: the key insight and the answer format, never the answer.',
      figure: lesson?.example
        ? lesson.example.hint === null
          ? `${example}: no usable hint`
          : `${example} got a hint`
        : null,
    },
    {
      id: 'nohint',
      label: 'Plays without the hint',
      sentence:
        'The agent plays fresh instances on K seeds; these plays are the GRPO group the agent would be trained on.',
      figure: stats ? `${example}: r_nohint = ${f2(stats.rNoHint)}` : null,
    },
    {
      id: 'hinted',
      label: 'Plays with the hint',
      sentence:
        'The same seeds again, the hint appended to the first observation; they only measure how much the hint helps.',
      figure: stats ? `${example}: r_hint = ${stats.rHint === null ? 'none' : f2(stats.rHint)}` : null,
    },
    {
      id: 'regret',
      label: 'Regret',
      sentence:
        'r_hint - r_nohint, how much the hint helps; with a win rate in the plateau it marks the frontier, which the designer reward pays for.',
      figure:
        stats && last ? `${example}: regret = ${f2(stats.regret)}; last epoch's mean ${f2(last.meanRegret)}` : null,
    },
    {
      id: 'memory',
      label: 'Memory',
      sentence:
        "Each environment's win rate and regret are remembered; the next epoch's designer sees well-calibrated examples of its skill and one to avoid.",
      figure: lesson ? `${lesson.memorySize} environments remembered` : null,
    },
  ];
}
