import { filesBaseUrl, listWindowOf, type CatalogModel } from '../../adapters/llm/webllm/model-catalog.ts';
import { chooseContextWindow, type WindowChoice } from '../../adapters/llm/webllm/context-window.ts';
import type { LoadContext } from '../../adapters/llm/webllm/webllm-errors.ts';
import { f32Sibling, smallerFamilyModel, type GpuCapabilities } from '../../adapters/llm/webllm/model-choice.ts';
import type { ModelOption, ModelSetupState } from './model-setup-state.ts';

/** A usable context window in tokens: a whole number from 256 to the largest window any listed model was trained for. */
export const validWindow = (tokens: unknown): tokens is number =>
  typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 256 && tokens <= 131_072;

/** The picker's options for `state`: each model's fit, cached files, recommendation and context window (none before a recommendation). */
export function optionsOf(models: readonly CatalogModel[], state: ModelSetupState): ModelOption[] {
  const rec = state.recommendation;
  if (!rec) return [];
  return models.map((model, index) => ({
    spec: model.spec,
    fit: rec.fits[index] ?? { id: model.spec.id, fits: false, problems: [] },
    cached: state.cached.find((c) => c.id === model.spec.id) ?? null,
    recommended: rec.recommendedId === model.spec.id,
    window: windowOf(model, state),
  }));
}

/** The context window `model` would load with under `state` (its listed window until the GPU is known). */
export function windowOf(model: CatalogModel, state: ModelSetupState): WindowChoice {
  const fallback: WindowChoice = { tokens: listWindowOf(model), automatic: true, explanation: '', warning: null };
  if (!state.capabilities) return fallback;
  return chooseContextWindow({
    caps: state.capabilities,
    model: model.spec,
    listWindow: listWindowOf(model),
    budgetMB: state.recommendation?.budgetMB ?? null,
    override: state.windowOverride,
  });
}

/** What a failed load of `model` explains itself with: its files and the alternatives among `models` to suggest. */
export function loadContextOf(
  model: CatalogModel,
  models: readonly CatalogModel[],
  caps: GpuCapabilities | null,
): LoadContext {
  const specs = models.map((m) => m.spec);
  const smaller = caps ? smallerFamilyModel(caps, model.spec, specs) : null;
  return {
    modelId: model.spec.id,
    filesUrl: filesBaseUrl(model.record.model),
    modelLibUrl: model.record.model_lib,
    f32Alternative: f32Sibling(model.spec, specs)?.id ?? null,
    smallerAlternative: smaller?.id ?? null,
  };
}
