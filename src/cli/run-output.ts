import { createHash } from 'node:crypto';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../core/config.ts';
import type { EpochResult } from '../core/epoch.ts';

/** Files a run writes, one JSON object per line. */
export const RUN_FILES = ['environments.jsonl', 'episodes.jsonl', 'epochs.jsonl', 'rollouts.jsonl', 'timings.jsonl'] as const;

/** SHA-256 of a text as lowercase hex. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function lines(rows: readonly unknown[]): string {
  return rows.map((row) => JSON.stringify(row) + '\n').join('');
}

/** Creates the output directory, writes config.json and empties the run files. */
export async function startRunOutput(dir: string, config: Config, modelId: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify({ model: modelId, config }, null, 2) + '\n');
  await Promise.all(RUN_FILES.map((file) => writeFile(join(dir, file), '')));
}

/** Appends one epoch to the run files (environments carry the sha256 of their code). */
export async function appendEpoch(dir: string, result: EpochResult): Promise<void> {
  const environments = result.environments.map((env) => ({ ...env, sha256: sha256Hex(env.code) }));
  await appendFile(join(dir, 'environments.jsonl'), lines(environments));
  await appendFile(join(dir, 'episodes.jsonl'), lines(result.episodes));
  await appendFile(join(dir, 'epochs.jsonl'), lines([result.metrics]));
  await appendFile(join(dir, 'rollouts.jsonl'), lines(result.rollouts));
  await appendFile(join(dir, 'timings.jsonl'), lines([result.timings]));
}

const fixed = (n: number) => n.toFixed(2);

/** One line per epoch for the terminal. */
export function epochLine(result: EpochResult): string {
  const m = result.metrics;
  const seconds = (result.timings.totalMs / 1000).toFixed(2);
  const modelShare = result.timings.totalMs > 0 ? Math.round((100 * result.timings.modelMs) / result.timings.totalMs) : 0;
  return `epoch ${m.epoch}: ${m.validEnvironments}/${m.slots} valid (validity ${fixed(m.validityRate)}), regret ${fixed(m.meanRegret)}, win rate ${fixed(m.meanWinRate)}, designer reward ${fixed(m.meanDesignerReward)}, ${m.episodes} episodes, ${seconds} s (${modelShare}% in the model)`;
}

/** The closing summary: totals and the environments nearest the agent's frontier. */
export function runSummary(results: readonly EpochResult[], dir: string): string {
  const envs = results.flatMap((r) => r.environments);
  const valid = envs.filter((e) => e.stats);
  const best = [...valid].sort((a, b) => b.stats!.designerReward - a.stats!.designerReward).slice(0, 5);
  const tokens = results.reduce((n, r) => n + r.metrics.promptTokens + r.metrics.completionTokens, 0);
  return [
    `${results.length} epoch(s): ${valid.length}/${envs.length} environments valid, ${results.reduce((n, r) => n + r.metrics.episodes, 0)} episodes, ${tokens} tokens`,
    'top environments by designer reward:',
    ...best.map((e) => `  ${e.id} ${e.skill.padEnd(22)} reward ${fixed(e.stats!.designerReward)}  win ${fixed(e.stats!.winRate)}  regret ${fixed(e.stats!.regret)}  hint: ${(e.hint ?? '').slice(0, 60)}`),
    `written to ${dir}: config.json, ${RUN_FILES.join(', ')}`,
  ].join('\n');
}
