import type { SandboxSources } from './sandbox-service.ts';
import harnessSource from './harness.py';
import sealSource from './seal.py';
import encodingSource from './encoding.py';
import toolUseSource from './tool_use_env.py';

/** The sandbox's own Python, as text: for the worker bundles only (esbuild loads `.py` files as text). */
export const SANDBOX_SOURCES: SandboxSources = {
  encoding: encodingSource,
  toolUse: toolUseSource,
  harness: harnessSource,
  seal: sealSource,
};
