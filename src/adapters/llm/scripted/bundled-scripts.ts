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
  for (const file of BUNDLED_SCRIPTS.values()) if (modelId === formatModelId({ kind: 'scripted', name: file.slice(file.lastIndexOf('/') + 1) })) return file;
  return null;
}
