import type { EvalRecord } from '../core/eval/eval-record.ts';
import { environmentPlace, type EpochResult } from '../core/loop/epoch.ts';
import { epochFigures } from '../core/scoring/epoch-figures.ts';
import { CONFIG_FILE, RUN_FILES, RUN_META_FILE, STATE_FILE } from '../formats/export/run-files.ts';
import { count } from './plural.ts';

/** Files of a run directory, one JSON object per line (written by FileRunStore). */
export { RUN_FILES };

const fixed = (n: number) => n.toFixed(2);
const figure = (n: number | null) => (n === null ? 'no data' : fixed(n));

/** One line per epoch for the terminal, the epoch counted from 1 as the app shows it (the run files count from 0). */
export function epochLine(result: EpochResult): string {
  const m = result.metrics;
  const f = epochFigures(m);
  const seconds = (result.timings.totalMs / 1000).toFixed(2);
  const modelShare =
    result.timings.totalMs > 0 ? Math.round((100 * result.timings.modelMs) / result.timings.totalMs) : 0;
  return `epoch ${m.epoch + 1}: ${m.validEnvironments}/${m.slots} valid (validity ${figure(f.validity)}), regret ${figure(f.regret)}, win rate ${figure(f.winRate)}, designer reward ${figure(f.designerReward)}, ${m.episodes} episodes, ${seconds} s (${modelShare}% in the model)`;
}

/** One line per held-out evaluation: when it ran, on what, and the win rate with its 95% interval. */
export function evalLine(record: EvalRecord): string {
  const [lo, hi] = record.ci95;
  return `held-out evaluation after ${count(record.afterEpochs, 'epoch')} on ${record.suite}: win rate ${fixed(record.winRate)} (95% CI ${fixed(lo)}-${fixed(hi)}), ${record.environments} environments, ${record.episodes} episodes, playbook ${record.playbook ? 'on' : 'off'}`;
}

/** The closing summary: totals and the environments nearest the agent's frontier, each id with its epoch and slot counted from 1 as the epoch lines count (ids count from 0, as the files do). */
export function runSummary(results: readonly EpochResult[], dir: string): string {
  const envs = results.flatMap((r) => r.environments);
  const valid = envs.filter((e) => e.stats);
  const best = [...valid].sort((a, b) => b.stats!.designerReward - a.stats!.designerReward).slice(0, 5);
  const tokens = results.reduce((n, r) => n + r.metrics.promptTokens + r.metrics.completionTokens, 0);
  return [
    `${count(results.length, 'epoch')}: ${valid.length}/${envs.length} environments valid, ${results.reduce((n, r) => n + r.metrics.episodes, 0)} episodes, ${tokens} tokens`,
    'top environments by designer reward (ids count epochs and slots from 0, as the files do):',
    ...best.map(
      (e) =>
        `  ${e.id} (${environmentPlace(e.epoch, e.slot)}) ${e.skill.padEnd(22)} reward ${fixed(e.stats!.designerReward)}  win ${fixed(e.stats!.winRate)}  regret ${fixed(e.stats!.regret)}  hint: ${(e.hint ?? '').slice(0, 60)}`,
    ),
    `written to ${dir}: ${[CONFIG_FILE, RUN_META_FILE, STATE_FILE, ...RUN_FILES].join(', ')}`,
  ].join('\n');
}
