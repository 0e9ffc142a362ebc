import type { Config } from '../../../core/config.ts';
import type { SweepGrid } from '../../../analysis/sweep-grid.ts';
import { formatModelId } from '../model-id.ts';

/** Model id of the bundled demo session (cognitive games). */
export const DEMO_MODEL_ID = formatModelId({ kind: 'scripted', name: 'spade-lab-demo' });

/** Model id of the bundled tool-use demo session (multi-turn tool use). */
export const TOOL_USE_DEMO_MODEL_ID = formatModelId({ kind: 'scripted', name: 'spade-lab-tool-use-demo' });

/** The script file each bundled demo session plays, under the app's public folder. */
export const BUNDLED_SCRIPTS: ReadonlyMap<string, string> = new Map([
  [DEMO_MODEL_ID, 'demo/demo-script.json'],
  [TOOL_USE_DEMO_MODEL_ID, 'demo/tool-use-script.json'],
]);

/**
 * The bundled script (path under the public folder) a recorded model id names: the tab's id of a
 * demo session, or the id a command-line run records for `--model scripted:public/demo/FILE`
 * (`scripted:FILE`); null for any other id.
 */
export function bundledScriptOf(modelId: string): string | null {
  const direct = BUNDLED_SCRIPTS.get(modelId);
  if (direct) return direct;
  for (const file of BUNDLED_SCRIPTS.values())
    if (modelId === formatModelId({ kind: 'scripted', name: file.slice(file.lastIndexOf('/') + 1) })) return file;
  return null;
}

/** The id a comparison names a model by: a bundled demo session's tab id however the run recorded it (`scripted:demo-script.json` from the command line), any other id as recorded. */
export function comparableModelId(modelId: string): string {
  const script = bundledScriptOf(modelId);
  return [...BUNDLED_SCRIPTS].find(([, file]) => file === script)?.[0] ?? modelId;
}

/** The settings the demo session's pre-written replies do not change with, by config key, in words. */
export const DEMO_IGNORED_KEYS: Readonly<Partial<Record<keyof Config, string>>> = {
  useMemory: 'environment memory',
  useCorpus: 'the grounding corpus',
  corpusWordBudget: 'document length',
  reward: 'the reward variant',
  difficulty: 'the difficulty word',
  designer: 'sampling settings',
  hint: 'sampling settings',
  agent: 'sampling settings',
  prompts: 'the prompt templates',
};

/** What to tell before a sweep of the demo session runs when its grid varies settings the demo ignores, or null when it varies none. */
export function demoSweepNote(grid: SweepGrid): string | null {
  const ignored = grid.filter((axis) => DEMO_IGNORED_KEYS[axis.key] !== undefined);
  if (ignored.length === 0) return null;
  const names = [...new Set(ignored.map((axis) => `${axis.name} (${DEMO_IGNORED_KEYS[axis.key]})`))].join(' and ');
  const outcome =
    ignored.length === grid.length
      ? 'every cell of this grid gives the same environments and scores for a seed: only the seeds tell the runs apart'
      : 'cells that differ only in them give the same environments and scores';
  return `The scripted demo's replies ignore ${names}: ${outcome}. It responds to its playbook (try playbook=off,on with eval-every=1); a real model responds to them all.`;
}
