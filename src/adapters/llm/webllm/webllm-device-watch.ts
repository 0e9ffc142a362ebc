import type { WorkerNotice } from './webllm-protocol.ts';

interface DeviceLike {
  lost: Promise<{ reason?: string; message?: string }>;
}
interface AdapterClass {
  prototype: { requestDevice(this: unknown, descriptor?: unknown): Promise<DeviceLike> };
}

/**
 * Runs inside the LLM worker: wraps `GPUAdapter.prototype.requestDevice` so that every device
 * web-llm creates reports its loss through `post` (web-llm itself only logs it). A loss with
 * reason `destroyed` is web-llm unloading on purpose and is not reported. Returns false when
 * this scope has no WebGPU.
 */
export function watchDeviceLoss(
  post: (notice: WorkerNotice) => void,
  scope: { GPUAdapter?: AdapterClass } = globalThis as { GPUAdapter?: AdapterClass },
): boolean {
  const adapterClass = scope.GPUAdapter;
  if (!adapterClass) return false;
  const original = adapterClass.prototype.requestDevice;
  adapterClass.prototype.requestDevice = async function requestDevice(
    this: unknown,
    descriptor?: unknown,
  ): Promise<DeviceLike> {
    const device = await original.call(this, descriptor);
    void device.lost.then((info) => {
      if (info.reason !== 'destroyed')
        post({ kind: 'spade:device-lost', reason: info.reason ?? 'unknown', message: info.message ?? '' });
    });
    return device;
  };
  return true;
}
