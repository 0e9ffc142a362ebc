// Which local model to run: plain data about the GPU and the model list in, a recommendation
// with reasons out. The adapters detect the GPU (src/adapters/gpu) and list web-llm's models.

/** Facts about the WebGPU adapter the browser granted. */
export interface GpuAdapterFacts {
  /** A software or otherwise degraded adapter (Chromium's SwiftShader is one). */
  isFallback: boolean;
  /** `GPUAdapterInfo` vendor, architecture and description (may be empty strings). */
  vendor: string;
  architecture: string;
  description: string;
  /** The `shader-f16` feature: needed by every `f16` model build. */
  shaderF16: boolean;
  /** Adapter limits in bytes (or counts), as `GPUAdapter.limits` reports them. */
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  maxComputeWorkgroupStorageSize: number;
  maxStorageBuffersPerShaderStage: number;
}

/** What this browser offers for running a model. */
export interface GpuCapabilities {
  /** `navigator.gpu` exists (and the page is a secure context). */
  webgpu: boolean;
  /** The adapter `requestAdapter()` granted, or null. */
  adapter: GpuAdapterFacts | null;
  /** Why there is no adapter, when the browser said (an exception text). */
  adapterError: string | null;
  /** `navigator.deviceMemory` in GB (rounded and capped by the browser), or null when unknown. */
  deviceMemoryGB: number | null;
}

/** One model the user can choose, described for choosing. */
export interface ModelSpec {
  /** The web-llm `model_id` (custom models start with `custom:`). */
  id: string;
  /** Family parsed from the id (e.g. `Qwen3`), or null. */
  family: string | null;
  /** Parameters in billions parsed from the id (e.g. 1.7), or null. */
  paramsB: number | null;
  /** Bits per weight (4, 3; 0 = unquantised), or null when the id does not say. */
  weightBits: number | null;
  /** Float width of activations: 16 needs `shader-f16`; null when unknown. */
  float: 16 | 32 | null;
  /** GPU memory the model needs in MB (web-llm's `vram_required_MB`), or null. */
  vramMB: number | null;
  /** web-llm's `low_resource_required`: runs with 128 MiB storage buffers. */
  lowResource: boolean;
  /** Smallest `maxStorageBufferBindingSize` the model needs in bytes, or null. */
  requiredStorageBufferBytes: number | null;
  /** WebGPU features the model declares it needs (e.g. `shader-f16`). */
  requiredFeatures: string[];
  /** A self-hosted model the user added. */
  custom: boolean;
}

/** Whether one model can run here, and why not. */
export interface ModelFit {
  id: string;
  fits: boolean;
  /** Why it cannot run (empty when it fits); each says what to do instead. */
  problems: string[];
}

/** The overall answer for this browser. */
export type GpuVerdict = 'ok' | 'no-webgpu' | 'no-adapter' | 'unsupported-gpu';

/** The recommendation shown before loading. */
export interface ModelRecommendation {
  verdict: GpuVerdict;
  /** The model to load, or null when nothing can run. */
  recommendedId: string | null;
  /** Short sentences explaining the verdict and the choice, in order. */
  reasons: string[];
  /** What to do when nothing can run; null otherwise. */
  nextStep: string | null;
  /** Every listed model's fit, in list order. */
  fits: ModelFit[];
  /** The GPU memory budget used in MB, or null when unknown (not limiting). */
  budgetMB: number | null;
}

/** The paper's model family in preference order (SPADE trains Qwen3; the tab runs the small ones). */
export const PAPER_FAMILY: ReadonlyArray<{ family: string; paramsB: number }> = [
  { family: 'Qwen3', paramsB: 4 },
  { family: 'Qwen3', paramsB: 1.7 },
  { family: 'Qwen3', paramsB: 0.6 },
];

/** The adapter limits below which web-llm cannot start at all (from its GPU detection). */
export const WEBLLM_MINIMUM_LIMITS = {
  maxBufferSize: 256 * 2 ** 20,
  maxStorageBufferBindingSize: 128 * 2 ** 20,
  maxComputeWorkgroupStorageSize: 32 * 1024,
  maxStorageBuffersPerShaderStage: 10,
} as const;

/** Storage-buffer binding size that non-low-resource models need (web-llm asks for 1 GiB). */
export const FULL_STORAGE_BUFFER_BYTES = 2 ** 30;

const SIZE_PATTERN = /^(?:custom:)?(.+?)-(\d+(?:\.\d+)?)([BM])(?=-|$)/i;
const QUANT_PATTERN = /-q(\d)f(16|32)(?:_\d)?(?=-|$)/i;

/** Family, size and quantisation parsed from a web-llm style id such as `Qwen3-1.7B-q4f32_1-MLC`. */
export function webllmModelTraits(id: string): Pick<ModelSpec, 'family' | 'paramsB' | 'weightBits' | 'float'> {
  const match = SIZE_PATTERN.exec(id);
  const quant = QUANT_PATTERN.exec(id);
  const size = match ? Number(match[2]) / (match[3]!.toUpperCase() === 'M' ? 1000 : 1) : null;
  return {
    family: match ? match[1]! : null,
    paramsB: size,
    weightBits: quant ? Number(quant[1]) : null,
    float: quant ? (Number(quant[2]) as 16 | 32) : null,
  };
}

const gb = (mb: number): string => `${(mb / 1024).toFixed(1)} GB`;
const mib = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MiB`;

/** The GPU memory budget in MB: the override, else half the reported RAM when it is under 8 GB, else null (unknown, not limiting). */
export function vramBudgetMB(caps: GpuCapabilities, overrideMB?: number): number | null {
  if (overrideMB !== undefined) return overrideMB;
  if (caps.deviceMemoryGB === null || caps.deviceMemoryGB >= 8) return null;
  return (caps.deviceMemoryGB * 1024) / 2;
}

/** The verdict on the browser alone, with its explanation and next step. */
export function judgeGpu(caps: GpuCapabilities): { verdict: GpuVerdict; reason: string; nextStep: string | null } {
  if (!caps.webgpu) {
    return {
      verdict: 'no-webgpu',
      reason: 'This browser does not expose WebGPU (navigator.gpu is missing), so no model can run in this tab.',
      nextStep:
        'Open SPADE Lab in a browser with WebGPU over https or localhost: Chrome or Edge 113+ (on Linux enable chrome://flags/#enable-unsafe-webgpu), Safari 26+, or Firefox 141+ on Windows. Or run models from the command line against an OpenAI-compatible server.',
    };
  }
  const adapter = caps.adapter;
  if (!adapter) {
    return {
      verdict: 'no-adapter',
      reason: `WebGPU exists but the browser granted no GPU adapter${caps.adapterError ? ` (${caps.adapterError})` : ''}: the GPU may be blocklisted, disabled or missing.`,
      nextStep:
        'Check chrome://gpu (WebGPU should say "Hardware accelerated"); update the GPU driver, turn on hardware acceleration in the browser settings, or on Linux enable chrome://flags/#enable-unsafe-webgpu and #enable-vulkan.',
    };
  }
  const short = (Object.keys(WEBLLM_MINIMUM_LIMITS) as Array<keyof typeof WEBLLM_MINIMUM_LIMITS>).filter(
    (key) => adapter[key] < WEBLLM_MINIMUM_LIMITS[key],
  );
  if (short.length > 0) {
    return {
      verdict: 'unsupported-gpu',
      reason: `The GPU adapter is below web-llm's minimum limits: ${short.map((key) => `${key} ${adapter[key]} < ${WEBLLM_MINIMUM_LIMITS[key]}`).join(', ')}.`,
      nextStep:
        'Try another browser or device; a recent Chrome on a machine with a discrete or recent integrated GPU meets these limits.',
    };
  }
  const name = [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(' ') || 'unnamed';
  return {
    verdict: 'ok',
    reason: `WebGPU adapter: ${name}${adapter.isFallback ? ' (software fallback)' : ''}.`,
    nextStep: null,
  };
}

/** The same model built with f32 activations (no `shader-f16` needed), when the list has one. */
export function f32Sibling(model: ModelSpec, models: readonly ModelSpec[]): ModelSpec | null {
  if (model.float !== 16) return null;
  const wanted = model.id.replace(/-q(\d)f16/i, '-q$1f32');
  return models.find((other) => other.id === wanted) ?? null;
}

/** Whether `model` can run on this adapter within `budgetMB` (null = no known limit). */
export function checkModelFit(
  caps: GpuCapabilities,
  model: ModelSpec,
  budgetMB: number | null,
  models: readonly ModelSpec[] = [],
): ModelFit {
  const problems: string[] = [];
  const adapter = caps.adapter;
  if (judgeGpu(caps).verdict !== 'ok' || !adapter)
    return { id: model.id, fits: false, problems: ['no usable WebGPU adapter'] };
  const needsF16 = model.float === 16 || model.requiredFeatures.includes('shader-f16');
  if (needsF16 && !adapter.shaderF16) {
    const sibling = f32Sibling(model, models);
    problems.push(`needs shader-f16, which this GPU lacks: ${sibling ? `use ${sibling.id}` : 'choose a q4f32 build'}`);
  }
  for (const feature of model.requiredFeatures) {
    if (feature !== 'shader-f16') problems.push(`needs the WebGPU feature ${feature}`);
  }
  if (!model.lowResource && adapter.maxStorageBufferBindingSize < FULL_STORAGE_BUFFER_BYTES) {
    problems.push(
      `needs 1 GiB storage buffers; this GPU allows ${mib(adapter.maxStorageBufferBindingSize)}: choose a low-resource model`,
    );
  }
  if (
    model.requiredStorageBufferBytes !== null &&
    model.requiredStorageBufferBytes > adapter.maxStorageBufferBindingSize
  ) {
    problems.push(
      `needs ${mib(model.requiredStorageBufferBytes)} storage buffers; this GPU allows ${mib(adapter.maxStorageBufferBindingSize)}`,
    );
  }
  if (budgetMB !== null && model.vramMB !== null && model.vramMB > budgetMB) {
    problems.push(
      `needs about ${gb(model.vramMB)} of GPU memory; about ${gb(budgetMB)} is available: choose a smaller model`,
    );
  }
  return { id: model.id, fits: problems.length === 0, problems };
}

function familyCandidates(models: readonly ModelSpec[], shaderF16: boolean, smallestFirst: boolean): ModelSpec[] {
  const floats: Array<16 | 32> = shaderF16 ? [16, 32] : [32];
  const sizes = smallestFirst ? [...PAPER_FAMILY].reverse() : PAPER_FAMILY;
  return sizes.flatMap(({ family, paramsB }) =>
    floats.flatMap((float) =>
      models.filter(
        (m) => !m.custom && m.family === family && m.paramsB === paramsB && m.weightBits === 4 && m.float === float,
      ),
    ),
  );
}

/**
 * Recommends the model to load: the paper's family first (Qwen3 4B, then 1.7B, then 0.6B; q4f16
 * builds when the GPU has `shader-f16`, q4f32 builds otherwise), the smallest of them on a software
 * adapter, else the largest other listed model that fits. Every listed model gets its fit.
 */
export function recommendModel(
  caps: GpuCapabilities,
  models: readonly ModelSpec[],
  options: { vramBudgetMB?: number } = {},
): ModelRecommendation {
  const gpu = judgeGpu(caps);
  const budgetMB = vramBudgetMB(caps, options.vramBudgetMB);
  const fits = models.map((model) => checkModelFit(caps, model, budgetMB, models));
  const base = { verdict: gpu.verdict, fits, budgetMB };
  if (gpu.verdict !== 'ok' || !caps.adapter)
    return { ...base, recommendedId: null, reasons: [gpu.reason], nextStep: gpu.nextStep };
  const reasons = [gpu.reason];
  const adapter = caps.adapter;
  reasons.push(
    adapter.shaderF16
      ? 'shader-f16 is available: q4f16 builds (smaller and faster) are preferred.'
      : 'No shader-f16 on this GPU: only q4f32 builds can run.',
  );
  if (budgetMB !== null)
    reasons.push(
      `GPU memory budget: about ${gb(budgetMB)} (half of the ${caps.deviceMemoryGB} GB of RAM the browser reports).`,
    );
  if (adapter.isFallback)
    reasons.push(
      'This is a software adapter: every token is computed on the CPU, so the smallest model of the family is recommended; expect slow generation.',
    );
  const fitOf = (model: ModelSpec): boolean => fits[models.indexOf(model)]!.fits;
  const family = familyCandidates(models, adapter.shaderF16, adapter.isFallback).find(fitOf);
  if (family) {
    reasons.push(
      `${family.id} is the first of the paper's family (Qwen3 4B, 1.7B, 0.6B) that fits${family.vramMB !== null ? `; it needs about ${gb(family.vramMB)} of GPU memory` : ''}.`,
    );
    return { ...base, recommendedId: family.id, reasons, nextStep: null };
  }
  const others = models.filter((m) => !m.custom && fitOf(m)).sort((a, b) => (b.vramMB ?? 0) - (a.vramMB ?? 0));
  const other = others[0];
  if (other) {
    reasons.push(
      `No Qwen3 4B/1.7B/0.6B build fits, so ${other.id}, the largest listed model that fits, is recommended.`,
    );
    return { ...base, recommendedId: other.id, reasons, nextStep: null };
  }
  reasons.push('No listed model fits this GPU.');
  return {
    ...base,
    recommendedId: null,
    reasons,
    nextStep:
      'Free GPU memory (close other tabs using the GPU), try a device with more memory, or add a smaller self-hosted model.',
  };
}

/** A reason not to start loading `model` at all (no usable WebGPU, or an f16 build without shader-f16), with the next step; null when loading may start. */
export function blockingProblem(
  caps: GpuCapabilities,
  model: ModelSpec,
  models: readonly ModelSpec[],
): { code: 'no_webgpu' | 'no_f16'; message: string; nextStep: string } | null {
  const gpu = judgeGpu(caps);
  if (gpu.verdict !== 'ok' || !caps.adapter)
    return { code: 'no_webgpu', message: gpu.reason, nextStep: gpu.nextStep ?? '' };
  if (caps.adapter.shaderF16 || (model.float !== 16 && !model.requiredFeatures.includes('shader-f16'))) return null;
  const sibling = f32Sibling(model, models);
  return {
    code: 'no_f16',
    message: `${model.id} needs shader-f16, which this GPU lacks.`,
    nextStep: sibling ? `Load ${sibling.id} instead: the same model built for 32-bit floats.` : 'Choose a q4f32 build.',
  };
}

/** The next model of the paper's family, in recommendation order, that fits and needs less GPU memory than `model` (to suggest after memory trouble); null when none. */
export function smallerFamilyModel(
  caps: GpuCapabilities,
  model: ModelSpec,
  models: readonly ModelSpec[],
): ModelSpec | null {
  if (!caps.adapter || model.vramMB === null) return null;
  const budgetMB = vramBudgetMB(caps);
  return (
    familyCandidates(models, caps.adapter.shaderF16, false).find(
      (m) => m.vramMB !== null && m.vramMB < model.vramMB! && checkModelFit(caps, m, budgetMB, models).fits,
    ) ?? null
  );
}
