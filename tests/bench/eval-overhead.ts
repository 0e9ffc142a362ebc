import { performance } from 'node:perf_hooks';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { loadSuite } from '../../src/cli/suite-spec.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { evaluateAgent } from '../../src/core/eval/evaluate.ts';

/** Figures of the evaluation-overhead benchmark. */
export interface EvalFigures {
  environments: number;
  episodes: number;
  totalMs: number;
  perEnvironmentMs: number;
}

/**
 * One held-out evaluation of the built-in suite (2 seeds per environment) with a zero-latency
 * model that answers every turn with a wrong guess, in the Node sandbox with its spares warm:
 * everything measured is loading each environment into its own interpreter, the plays and the
 * summary.
 */
export async function measureEvalOverhead(): Promise<EvalFigures> {
  const config = { ...DEFAULT_CONFIG, evalSeeds: 2 };
  const sandbox = createNodeSandboxRuntime();
  try {
    await sandbox.warm();
    const suite = await loadSuite(
      'builtin',
      config,
      () => sandbox,
      () => undefined,
    );
    const model = new ScriptedChatModel(() => '\\boxed{0}', 'zero-latency');
    const start = performance.now();
    const record = await evaluateAgent(
      { model, sandbox },
      { suite, config, playbook: [], afterEpochs: 0, trigger: 'demand' },
    );
    const totalMs = performance.now() - start;
    return {
      environments: record.environments,
      episodes: record.episodes,
      totalMs,
      perEnvironmentMs: totalMs / record.environments,
    };
  } finally {
    await sandbox.close();
  }
}
