import { formatModelId } from '../adapters/llm/model-id.ts';
import { withSetting, type Config } from '../core/config.ts';

/** Model id of the bundled demo session (cognitive games). */
export const DEMO_MODEL_ID = formatModelId({ kind: 'scripted', name: 'spade-lab-demo' });

/** The model choice "Start the demo" makes: the bundled demo session and its label. */
export const DEMO_CHOICE = { modelId: DEMO_MODEL_ID, label: 'Scripted demo session (no model)' } as const;

/** Model id of the bundled tool-use demo session (multi-turn tool use). */
export const TOOL_USE_DEMO_MODEL_ID = formatModelId({ kind: 'scripted', name: 'spade-lab-tool-use-demo' });

/** The script file each bundled demo session plays, under the app's public folder. */
const DEMO_SCRIPTS: ReadonlyMap<string, string> = new Map([
  [DEMO_MODEL_ID, 'demo/demo-script.json'],
  [TOOL_USE_DEMO_MODEL_ID, 'demo/tool-use-script.json'],
]);

/** The script file of a bundled demo session, or null for any other model. */
export function demoScriptPath(modelId: string): string | null {
  return DEMO_SCRIPTS.get(modelId) ?? null;
}

/** Whether a model id is one of the bundled scripted demo sessions. */
export function isDemoModel(modelId: string): boolean {
  return DEMO_SCRIPTS.has(modelId);
}

/** The new-run form's starting settings for a model: the tool-use demo starts in the tool-use setting with the solvability judge on. */
export function startingConfig(modelId: string, initial: Config): Config {
  return modelId === TOOL_USE_DEMO_MODEL_ID && initial.setting !== 'tool_use' ? { ...withSetting(initial, 'tool_use'), solvabilityJudge: true } : initial;
}
