import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseModelId } from '../adapters/llm/model-id.ts';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { configProblems } from '../core/config.ts';
import { evaluateAgent } from '../core/eval/evaluate.ts';
import type { ChatModel } from '../core/ports/chat-port.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { bundledModel, contextWindowOption, modelFromSpec } from './model-spec.ts';
import { grammarNote } from '../core/loop/agent-grammar.ts';
import { evalLine } from './run-output.ts';
import { loadSuite } from './suite-spec.ts';

/** `text` as one single-quoted shell word (a recorded id may hold `$(...)`, and users copy the suggestion). */
const shellQuoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The model `--model` names, or else the run's own when its id names a chat script found at that
 * path or a bundled demo session (the tab's demo, or a run of `--model scripted:public/demo/FILE`),
 * rebuilt from the app's own script. A recorded `openai:URL#MODEL` is never called on its own:
 * the API key goes only to a server this command line names, so the user must pass `--model` with
 * that URL (a run folder or an imported archive may record any server).
 */
async function evaluatedModel(
  spec: string | undefined,
  recorded: string,
  window: unknown,
  note: (line: string) => void,
): Promise<ChatModel> {
  if (spec !== undefined) return modelFromSpec(spec, contextWindowOption(window, spec));
  const id = parseModelId(recorded);
  if (id?.kind === 'openai') {
    throw new UsageError(
      `the run recorded the model server ${id.baseUrl} (model ${id.model}); spade sends your API key only to a server you name, so to evaluate with it pass --model ${shellQuoted(recorded)}, or name another model with --model`,
    );
  }
  if (id?.kind === 'scripted' && existsSync(id.name))
    return modelFromSpec(recorded, contextWindowOption(window, recorded));
  const bundled = await bundledModel(recorded);
  if (bundled) {
    contextWindowOption(window, recorded);
    note(`model: the bundled demo session ${recorded}, from ${relative(process.cwd(), bundled.file) || bundled.file}`);
    return bundled.model;
  }
  throw new UsageError(
    `the run's model ${recorded} cannot be rebuilt from its id; pass --model scripted:FILE or openai:URL#MODEL`,
  );
}

/** The flags of `spade eval`. */
export const EVAL_OPTIONS = {
  run: { type: 'string', value: 'DIR', help: 'the run directory whose agent plays (spade run --out); required' },
  suite: {
    type: 'string',
    value: 'builtin|FILE|DIR|DIR@N',
    help: "the held-out suite: a pool zip or folder, or a run directory's pool at epoch N or its last (default builtin)",
  },
  seeds: {
    type: 'string',
    value: 'N',
    help: "plays of each held-out environment, each on its own fixed seed (default: the run's)",
  },
  'no-playbook': { type: 'boolean', help: "evaluate without the run's playbook" },
  model: {
    type: 'string',
    value: 'SPEC',
    help: "the model (default: the run's own, when its id can be rebuilt without a server)",
  },
  'context-window': {
    type: 'string',
    value: 'N',
    help: 'the context window in tokens, for a server that does not report its own',
  },
  json: { type: 'boolean', help: 'print the evaluation as one JSON object (notes go to standard error)' },
} as const satisfies OptionTable;

/**
 * `eval --run DIR [--suite builtin|FILE|DIR|DIR@N] [--seeds N] [--no-playbook] [--model SPEC] [--context-window N] [--json]`:
 * evaluates a run's agent as it is now (its config and its latest playbook) on a held-out suite,
 * appends the evaluation to DIR/evals.jsonl and prints its win rate with the 95% interval (with
 * `--json`, one JSON object; the suite's left-out environments then go to `warn`).
 */
export async function runEval(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
  warn: (line: string) => void = print,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, EVAL_OPTIONS);
  if (positionals.length > 0) throw new UsageError(`eval takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.run) throw new UsageError('eval needs --run DIR');
  const dir = String(values.run);
  const store = new FileRunStore(dir);
  const [meta] = await store.listRuns();
  const loaded = meta ? await store.loadRun(meta.id) : null;
  if (!meta || !loaded) throw new UsageError(`${dir} holds no run (expected the directory spade run --out wrote)`);
  const config = {
    ...loaded.meta.config,
    evalSeeds: integerOption(values.seeds, 'seeds', loaded.meta.config.evalSeeds),
  };
  if (values['no-playbook']) config.usePlaybook = false;
  const problems = configProblems(config);
  if (problems.length > 0) throw new UsageError(problems.join('; '));
  const model = await evaluatedModel(
    values.model === undefined ? undefined : String(values.model),
    meta.modelId,
    values['context-window'],
    values.json ? warn : print,
  );
  if (model.id === meta.modelId && loaded.state.modelSnapshot !== undefined)
    model.restore?.(loaded.state.modelSnapshot);
  const unconstrained = grammarNote(config, model);
  if (unconstrained) warn(unconstrained);
  const suite = await loadSuite(
    values.suite === undefined ? 'builtin' : String(values.suite),
    config,
    runtime,
    values.json ? warn : print,
  );
  const record = await evaluateAgent(
    { model, sandbox: runtime() },
    { suite, config, playbook: loaded.state.playbook ?? [], afterEpochs: meta.epochsCompleted, trigger: 'demand' },
  );
  await store.addEvaluation(meta.id, record);
  if (values.json) {
    const { environments, episodes, winRate, ci95, perSkill } = record;
    print(JSON.stringify({ suite: record.suite, environments, episodes, winRate, ci95, perSkill }));
    return 0;
  }
  print(evalLine(record));
  for (const [skill, s] of Object.entries(record.perSkill)) {
    print(
      `  ${skill.padEnd(24)} win rate ${s.winRate.toFixed(2)} (95% CI ${s.ci95[0].toFixed(2)}-${s.ci95[1].toFixed(2)}), ${s.environments} environments, ${s.episodes} episodes`,
    );
  }
  print(`appended to ${join(dir, 'evals.jsonl')}`);
  return 0;
}
