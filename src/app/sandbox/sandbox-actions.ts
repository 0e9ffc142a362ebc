import type { ChatModel } from '../../core/ports/chat-port.ts';
import type { RescoreResult } from '../../core/env/rescore-env.ts';
import { DEFAULT_VALIDATION, validateEnvironment, type ValidationReport } from '../../core/env/validate-env.ts';
import { validationNonce } from '../../adapters/validation-nonce.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { rescoreWithRunModel, type EnvPageData } from '../explorer/env-page.ts';
import { PlaySession, type PlayOptions } from '../explorer/play-yourself.ts';

/** What the views run in the sandbox (outside any epoch; nothing is saved), bound to the app's sandbox and the runs' models. */
export interface SandboxActions {
  /** Validates code as it is (`code`: edited or pasted Python), or a designer reply (`reply`: fenced block extracted, `<think>` stripped, f-string braces repaired), with the tab defaults. */
  validate(text: string, source: 'code' | 'reply'): Promise<ValidationReport>;
  /** Starts a human play of an environment's code. */
  play(options: PlayOptions): Promise<PlaySession>;
  /** Re-scores `code` on the environment's seeds with its run's model; `onEpisode` gets (done, total). */
  rescore(
    data: EnvPageData,
    code: string,
    onEpisode: (done: number, total: number) => void,
    signal?: AbortSignal,
  ): Promise<RescoreResult>;
}

/** The sandbox actions over `sandbox` (created on first use), re-scoring with `model` (the model a run's epochs use). */
export function sandboxActions(
  sandbox: () => SandboxRuntime,
  model: (meta: RunMeta) => Promise<ChatModel>,
): SandboxActions {
  return {
    validate: (text, source) =>
      validateEnvironment(text, sandbox(), { ...DEFAULT_VALIDATION, source, nonce: validationNonce() }),
    play: (options) => PlaySession.start(sandbox(), options),
    rescore: (data, code, onEpisode, signal) =>
      rescoreWithRunModel({ model, sandbox: sandbox() }, data, code, onEpisode, signal),
  };
}
