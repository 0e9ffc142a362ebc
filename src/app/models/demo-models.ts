import { BUNDLED_SCRIPTS, DEMO_MODEL_ID, TOOL_USE_DEMO_MODEL_ID } from '../../adapters/llm/scripted/bundled-scripts.ts';
import { withSetting, type Config } from '../../core/config.ts';

export { DEMO_MODEL_ID, TOOL_USE_DEMO_MODEL_ID };

/** The model choice "Start the demo" makes: the bundled demo session and its label. */
export const DEMO_CHOICE = { modelId: DEMO_MODEL_ID, label: 'Scripted demo session (no model)' } as const;

/** The script file of a bundled demo session, or null for any other model. */
export function demoScriptPath(modelId: string): string | null {
  return BUNDLED_SCRIPTS.get(modelId) ?? null;
}

/** Whether a model id is one of the bundled scripted demo sessions. */
export function isDemoModel(modelId: string): boolean {
  return BUNDLED_SCRIPTS.has(modelId);
}

/** The new-run form's starting settings for a model: the tool-use demo starts in the tool-use setting with the solvability judge on. */
export function startingConfig(modelId: string, initial: Config): Config {
  return modelId === TOOL_USE_DEMO_MODEL_ID && initial.setting !== 'tool_use'
    ? { ...withSetting(initial, 'tool_use'), solvabilityJudge: true }
    : initial;
}
