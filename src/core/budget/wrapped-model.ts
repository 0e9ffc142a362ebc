import type { AbortSignalLike, ChatModel } from '../ports/chat-port.ts';
import { contextWindowOf } from './fit-request.ts';

/**
 * A model that answers through `complete` and says of itself what the wrapped model says: how many
 * calls it serves, whether it honours grammars, its context size (asked once per model) and its
 * prompt counts (given `signal` when the caller passes none), so a wrapper that adds a signal or a
 * clock never hides the context size from the token budget.
 */
export function wrapModel(model: ChatModel, complete: ChatModel['complete'], signal?: AbortSignalLike): ChatModel {
  const counter = model.countPromptTokens?.bind(model);
  return {
    id: model.id,
    ...(model.maxConcurrency !== undefined ? { maxConcurrency: model.maxConcurrency } : {}),
    ...(model.grammars !== undefined ? { grammars: model.grammars } : {}),
    ...(model.contextWindow ? { contextWindow: () => contextWindowOf(model) } : {}),
    ...(counter ? { countPromptTokens: (request, callSignal) => counter(request, callSignal ?? signal) } : {}),
    complete,
  };
}
