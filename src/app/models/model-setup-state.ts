import type { CustomModelInput } from '../../adapters/llm/webllm/model-catalog.ts';
import type { WindowChoice } from '../../adapters/llm/webllm/context-window.ts';
import type { CachedModel, StorageFacts } from '../../adapters/llm/webllm/webllm-cache.ts';
import type { LoadFailure, ModelLoadErrorCode } from '../../adapters/llm/webllm/webllm-errors.ts';
import type { LoadProgress } from '../../adapters/llm/webllm/webllm-progress.ts';
import type { WorkerProbe } from '../../adapters/llm/webllm/webllm-session.ts';
import type {
  GpuCapabilities,
  ModelFit,
  ModelRecommendation,
  ModelSpec,
} from '../../adapters/llm/webllm/model-choice.ts';

export type {
  CachedModel,
  CustomModelInput,
  LoadFailure,
  LoadProgress,
  ModelLoadErrorCode,
  StorageFacts,
  WindowChoice,
  WorkerProbe,
};

/** One choosable model, as the picker shows it. */
export interface ModelOption {
  spec: ModelSpec;
  fit: ModelFit;
  /** Its cached files, or null when nothing is cached. */
  cached: CachedModel | null;
  recommended: boolean;
  /** The context window it would load with, and why. */
  window: WindowChoice;
}

/** Where the setup is. */
export type ModelSetupPhase = 'detecting' | 'unsupported' | 'choosing' | 'loading' | 'ready' | 'recovering' | 'failed';

/** Everything the model setup screen shows (replaced, never mutated, on every change). */
export interface ModelSetupState {
  phase: ModelSetupPhase;
  capabilities: GpuCapabilities | null;
  recommendation: ModelRecommendation | null;
  options: ModelOption[];
  selectedId: string | null;
  loadedId: string | null;
  /** The window the loaded model was loaded with, in tokens (null: none loaded, or only its own config knows). */
  loadedWindow: number | null;
  /** The user's context window in tokens, or null for the automatic choice. */
  windowOverride: number | null;
  progress: LoadProgress | null;
  error: LoadFailure | null;
  /** Why the custom model form was rejected, or null. */
  customError: string | null;
  /** The worker engine's own GPU answer (`starting` until it comes), or null before detection. */
  worker: { status: 'starting' | 'ready' | 'failed'; probe: WorkerProbe | null; error: string | null } | null;
  storage: StorageFacts | null;
  cached: CachedModel[];
  /** The model loaded last time, when it is completely cached (it loads without network). */
  resumableId: string | null;
  /** A short status line (cancelled, device lost, recovered), or null. */
  notice: string | null;
}

/** Events a run controller uses: pause on `device-lost`, continue on `recovered`, stop on `recovery-failed`. */
export type ModelEvent =
  | { type: 'loaded'; modelId: string }
  | { type: 'unloaded' }
  | { type: 'device-lost'; message: string }
  | { type: 'recovered'; modelId: string; ms: number }
  | { type: 'recovery-failed'; error: LoadFailure };
