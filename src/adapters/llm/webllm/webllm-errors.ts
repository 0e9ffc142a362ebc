/** Stable codes of model-load failures. */
export type ModelLoadErrorCode =
  | 'no_webgpu'
  | 'no_f16'
  | 'out_of_memory'
  | 'network'
  | 'not_found'
  | 'storage_full'
  | 'device_lost'
  | 'bad_model'
  | 'worker_failed'
  | 'cancelled'
  | 'unknown';

/** A load that failed: what happened, and the next step for the user. */
export class ModelLoadError extends Error {
  override readonly name = 'ModelLoadError';
  constructor(
    readonly code: ModelLoadErrorCode,
    message: string,
    /** What the user can do next. */
    readonly nextStep: string,
  ) {
    super(message);
  }
}

/** A failure as plain data, for state and events. */
export interface LoadFailure {
  code: ModelLoadErrorCode;
  message: string;
  nextStep: string;
}

/** The plain data of a load error. */
export function failureOf(error: ModelLoadError): LoadFailure {
  return { code: error.code, message: error.message, nextStep: error.nextStep };
}

/** What a failed load was doing, for the message. */
export interface LoadContext {
  modelId: string;
  /** The folder web-llm reads the weights from. */
  filesUrl: string;
  modelLibUrl: string;
  /** The same model without f16, when there is one (for the `no_f16` next step). */
  f32Alternative: string | null;
  /** A smaller model to suggest after memory trouble, when there is one. */
  smallerAlternative: string | null;
  /** The window it loaded with when larger than web-llm's list gives it (memory trouble then suggests a smaller window first). */
  enlargedWindow?: number | null;
}

/** The text of whatever web-llm threw: its worker sends errors as strings (`err.toString()`). */
export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

const RULES: Array<{ code: ModelLoadErrorCode; test: RegExp }> = [
  {
    code: 'no_webgpu',
    test: /WebGPUNotAvailableError|WebGPUNotFoundError|WebGPU is not supported|Unable to find a compatible GPU|Cannot find WebGPU|Cannot initialize runtime/i,
  },
  { code: 'no_f16', test: /ShaderF16SupportError|shader-f16|\benable f16\b|extension 'f16'|f16 extension/i },
  { code: 'storage_full', test: /QuotaExceeded|quota (has been )?exceeded|storage quota/i },
  { code: 'device_lost', test: /DeviceLostError|device (was |is )?lost|GPUDevice.*(lost|destroyed)/i },
  {
    code: 'out_of_memory',
    test: /out of memory|OutOfMemory|\bOOM\b|allocation failed|Failed to allocate|Cannot allocate/i,
  },
  { code: 'not_found', test: /Request failed|status (code )?4\d\d|404|Not Found/i },
  {
    code: 'network',
    test: /Failed to fetch|NetworkError|network error|net::ERR_|ERR_NAME_NOT_RESOLVED|ERR_INTERNET_DISCONNECTED|Load failed|fetch failed/i,
  },
  {
    code: 'bad_model',
    test: /CompileError|WebAssembly|wasm|magic word|ModelNotFoundError|Cannot find model record|MissingModel|is not valid JSON|Unexpected token|SyntaxError|Cannot handle tokenizer/i,
  },
];

/** The code of a web-llm failure text; `unknown` when no rule matches. */
export function codeOf(text: string): ModelLoadErrorCode {
  return RULES.find((rule) => rule.test.test(text))?.code ?? 'unknown';
}

/** A load failure with a clear message and next step, from whatever the engine threw. */
export function classifyLoadError(error: unknown, context: LoadContext): ModelLoadError {
  if (error instanceof ModelLoadError) return error;
  const text = errorText(error);
  const { modelId, filesUrl, modelLibUrl } = context;
  const seen = `(web-llm said: ${text.slice(0, 300)})`;
  const model = context.smallerAlternative
    ? `a smaller model such as ${context.smallerAlternative}`
    : 'a smaller model';
  const window = context.enlargedWindow
    ? `a smaller window under "Context window" (it loaded with ${context.enlargedWindow.toLocaleString('en-US')} tokens) or `
    : '';
  const smaller = `choose ${window}${model}`;
  switch (codeOf(text)) {
    case 'no_webgpu':
      return new ModelLoadError(
        'no_webgpu',
        `${modelId} cannot run: the model worker found no usable WebGPU adapter ${seen}.`,
        'Use a browser with WebGPU (Chrome or Edge 113+; on Linux enable chrome://flags/#enable-unsafe-webgpu) and check chrome://gpu.',
      );
    case 'no_f16':
      return new ModelLoadError(
        'no_f16',
        `${modelId} needs 16-bit float shaders (shader-f16), which this GPU does not offer ${seen}.`,
        context.f32Alternative
          ? `Load ${context.f32Alternative} instead: the same model built for 32-bit floats.`
          : 'Choose a q4f32 build of a model.',
      );
    case 'storage_full':
      return new ModelLoadError(
        'storage_full',
        `The browser refused to store more of ${modelId}: this site's storage quota is full ${seen}.`,
        'Delete cached models you no longer use (Model cache below), allow persistent storage, or free disk space, then load again.',
      );
    case 'out_of_memory':
      return new ModelLoadError(
        'out_of_memory',
        `The GPU ran out of memory loading ${modelId} ${seen}.`,
        `Close other tabs or apps using the GPU and load again, or ${smaller}.`,
      );
    case 'device_lost':
      return new ModelLoadError(
        'device_lost',
        `The GPU device was lost while loading ${modelId}; this usually means it ran out of memory, or the driver reset ${seen}.`,
        `Load again; if the device is lost again, ${smaller}.`,
      );
    case 'not_found':
      return new ModelLoadError(
        'not_found',
        `The server ${hostOf(filesUrl)} answered with an error for a file of ${modelId} (weights folder ${filesUrl}, library ${modelLibUrl}) ${seen}.`,
        'Check both URLs: web-llm reads mlc-chat-config.json, tensor-cache.json and the shards from the weights folder (it appends resolve/main/ unless the URL already contains /resolve/<branch>/).',
      );
    case 'network':
      return new ModelLoadError(
        'network',
        `Could not download ${modelId}: ${hostOf(filesUrl)} is unreachable from this browser (no network, offline, DNS failure, proxy or firewall) ${seen}.`,
        'Check the connection and load again: shards already downloaded stay cached and are not fetched again. Offline or behind a firewall, serve the model files yourself and add them under "Custom model".',
      );
    case 'bad_model':
      return new ModelLoadError(
        'bad_model',
        `The files of ${modelId} are not a model web-llm 0.2.86 can run ${seen}.`,
        'Check that the model library (.wasm) was built for web-llm 0.2.86 (v0_2_86) and matches the weights, and that both URLs point at the files themselves, not at an HTML page.',
      );
    default:
      return new ModelLoadError(
        'unknown',
        `Loading ${modelId} failed ${seen}.`,
        'Reload the page and load again; if it fails the same way, try another model and report the error text.',
      );
  }
}
