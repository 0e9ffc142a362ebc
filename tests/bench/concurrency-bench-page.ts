// Benchmark-only page module: a run's epochs as the app plays them against an OpenAI-compatible
// server (the app's adapter, its browser sandbox and the core loop, all in this page), for the
// concurrency bench's browser variant (tests/bench/concurrency-browser.ts).
import { sandboxAssets } from 'virtual:spade-sandbox';
import { OpenAIChatModel } from '../../src/adapters/llm/openai/openai-chat-model.ts';
import { createBrowserSandboxRuntime } from '../../src/adapters/sandbox/browser-sandbox.ts';
import type { Config } from '../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../src/core/loop/epoch.ts';
import { criticalPath } from './critical-path.ts';

declare global {
  interface Window {
    /** Connects to the server at `origin` and starts the sandbox as the app does (its first spare booted). */
    spadeConcurrencyOpen: (origin: string) => Promise<void>;
    /** Plays the run's next epoch and resolves with its critical path. */
    spadeConcurrencyEpoch: (config: Config) => Promise<number>;
  }
}

let run: {
  model: OpenAIChatModel;
  sandbox: ReturnType<typeof createBrowserSandboxRuntime>;
  state: typeof INITIAL_RUN_STATE;
} | null = null;

window.spadeConcurrencyOpen = async (origin) => {
  const sandbox = createBrowserSandboxRuntime(sandboxAssets);
  await sandbox.warm();
  run = { model: new OpenAIChatModel({ baseUrl: origin, model: 'stand-in' }), sandbox, state: INITIAL_RUN_STATE };
};

window.spadeConcurrencyEpoch = async (config) => {
  if (!run) throw new Error('spadeConcurrencyOpen first');
  const result = await runEpoch(
    { model: run.model, sandbox: run.sandbox, corpus: [], now: () => performance.now() },
    run.state,
    config,
  );
  run.state = result.nextState;
  return criticalPath(result);
};
