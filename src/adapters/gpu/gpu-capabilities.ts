import type { GpuAdapterFacts, GpuCapabilities } from '../llm/webllm/model-choice.ts';
import { errorMessage } from '../../core/error-message.ts';

/** The part of a WebGPU `GPUAdapter` the detection reads (TypeScript's DOM lib has no WebGPU types). */
export interface GpuAdapterLike {
  readonly features: { has(name: string): boolean };
  readonly limits: Pick<
    GpuAdapterFacts,
    | 'maxBufferSize'
    | 'maxStorageBufferBindingSize'
    | 'maxComputeWorkgroupStorageSize'
    | 'maxStorageBuffersPerShaderStage'
  >;
  readonly info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  readonly isFallbackAdapter?: boolean;
}

/** The part of `navigator` the detection reads (injectable for tests). */
export interface NavigatorLike {
  gpu?: {
    requestAdapter(options?: { powerPreference?: 'low-power' | 'high-performance' }): Promise<GpuAdapterLike | null>;
  };
  deviceMemory?: number;
}

/** How long `requestAdapter()` may take before the detection gives up (some drivers hang). */
export const ADAPTER_TIMEOUT_MS = 10_000;

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) =>
    setTimeout(() => reject(new Error(`requestAdapter() did not answer within ${ms} ms`)), ms),
  );
}

/** Reads one adapter's facts (the fallback flag from `adapter.info`, or the older `adapter.isFallbackAdapter`). */
export function describeAdapter(adapter: GpuAdapterLike): GpuAdapterFacts {
  const info = adapter.info ?? {};
  const limits = adapter.limits;
  return {
    isFallback: Boolean(info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false),
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    description: info.description ?? '',
    shaderF16: adapter.features.has('shader-f16'),
    maxBufferSize: limits.maxBufferSize,
    maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
    maxComputeWorkgroupStorageSize: limits.maxComputeWorkgroupStorageSize,
    maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
  };
}

/** Detects WebGPU, the adapter web-llm would get (`high-performance`), its limits and `shader-f16`. Never throws. */
export async function detectGpuCapabilities(
  nav: NavigatorLike = globalThis.navigator as NavigatorLike,
  timeoutMs = ADAPTER_TIMEOUT_MS,
): Promise<GpuCapabilities> {
  const deviceMemoryGB = typeof nav?.deviceMemory === 'number' ? nav.deviceMemory : null;
  if (!nav?.gpu) return { webgpu: false, adapter: null, adapterError: null, deviceMemoryGB };
  try {
    const adapter = await Promise.race([
      nav.gpu.requestAdapter({ powerPreference: 'high-performance' }),
      timeout(timeoutMs),
    ]);
    return { webgpu: true, adapter: adapter ? describeAdapter(adapter) : null, adapterError: null, deviceMemoryGB };
  } catch (error) {
    return { webgpu: true, adapter: null, adapterError: errorMessage(error), deviceMemoryGB };
  }
}
