/** What a model id (`ChatModel.id`, `RunMeta.modelId`, the CLI's `--model`) names, by backend. */
export type ModelId =
  | { kind: 'webllm'; model: string }
  | { kind: 'wllama'; file: string }
  | { kind: 'openai'; baseUrl: string; model: string }
  | { kind: 'scripted'; name: string };

/** The id of the WebGPU model `model`: `webllm:<model>`. */
export const webllmModelId = (model: string) => formatModelId({ kind: 'webllm', model });
/** The id of the CPU model loaded from GGUF file `file`: `wllama:<file>`. */
export const wllamaModelId = (file: string) => formatModelId({ kind: 'wllama', file });

/** Writes a model id: `webllm:MODEL`, `wllama:FILE`, `openai:URL#MODEL` or `scripted:NAME`. */
export function formatModelId(id: ModelId): string {
  switch (id.kind) {
    case 'webllm':
      return `webllm:${id.model}`;
    case 'wllama':
      return `wllama:${id.file}`;
    case 'openai':
      return `openai:${id.baseUrl}#${id.model}`;
    case 'scripted':
      return `scripted:${id.name}`;
  }
}

/**
 * Reads a model id; null when it names no backend or a part is missing. An OpenAI-compatible id
 * needs an http(s) base URL and a model after the first `#` (a URL never needs a `#`).
 */
export function parseModelId(text: string): ModelId | null {
  const colon = text.indexOf(':');
  if (colon <= 0) return null;
  const kind = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (kind === 'openai') {
    const hash = rest.indexOf('#');
    if (hash <= 0 || hash === rest.length - 1 || !/^https?:\/\/./.test(rest.slice(0, hash))) return null;
    return { kind, baseUrl: rest.slice(0, hash), model: rest.slice(hash + 1) };
  }
  if (rest === '') return null;
  if (kind === 'webllm') return { kind, model: rest };
  if (kind === 'wllama') return { kind, file: rest };
  if (kind === 'scripted') return { kind, name: rest };
  return null;
}
