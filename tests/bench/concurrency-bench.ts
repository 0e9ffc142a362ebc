import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { OpenAIChatModel } from '../../src/adapters/llm/openai/openai-chat-model.ts';
import { ScriptedChatModel, type ChatScript } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../src/core/loop/epoch.ts';
import { FakeOpenAIServer, scriptedResponder, type Reply } from '../adapters/llm/openai/fake-openai-server.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { criticalPath } from './critical-path.ts';

/** One epoch against the stand-in server at one concurrency. */
export interface ConcurrencyRun {
  concurrency: number;
  /** 1 for the run's first epoch (the sandbox as a command starts it), 2 for the next (its interpreters kept from the first). */
  epoch: number;
  /** Longest chain of dependent requests in the epoch. */
  criticalPath: number;
  /** Wall time of the epoch; estimated as requests x latency when `estimated`. */
  ms: number;
  estimated: boolean;
  requests: number;
  maxInFlight: number;
  /** With the Node sandbox: interpreters booted during the epoch, and the time loads and reservations waited for one (summed over all of them). */
  interpreters?: { boots: number; waitMs: number; killed: number };
}

/** Where the environments run: the in-process double of the game, the product's Node sandbox (Pyodide interpreter threads, each play in one of its own or in a share of one, restored after it), or the app's browser sandbox in Chromium. */
export type BenchSandbox = 'fake' | 'node' | 'browser';

const SANDBOX_NAMES: Record<BenchSandbox, string> = {
  fake: 'in-process fake sandbox',
  node: 'real Node sandbox (Pyodide interpreter threads shared by parked plays, restored after them)',
  browser: "browser sandbox in Chromium (the app's Pyodide workers, the epoch and the OpenAI adapter in the page)",
};

/** Chromium's limit on HTTP/1.1 connections to one host, so on requests in flight to one OpenAI-compatible server from a tab. */
const CHROMIUM_CONNECTIONS = 6;

/** One scale of the benchmark: both epochs at concurrency 1 and at the scale's concurrency. */
export interface ConcurrencyFigures {
  name: string;
  sandbox: BenchSandbox;
  slots: number;
  plays: number;
  latencyMs: number;
  runs: ConcurrencyRun[];
}

/** Epochs per measured run: the first starts from a command's sandbox, the second finds the interpreters the first left. */
const EPOCHS = 2;

const GLOW_KEY = (
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')) as ChatScript
).rules[0]!.replies[0]!;

// The epoch-overhead workload: every design valid, hinted plays win in one turn, unhinted ones never win (all 12 turns).
const SCRIPT: ChatScript = {
  name: 'bench',
  rules: [
    { purpose: 'designer', replies: [GLOW_KEY] },
    { purpose: 'hint', replies: ['Use the key that glows. Answer as \\boxed{name}.'] },
    { purpose: 'agent', in: 'all', match: 'The (\\w+) key glows[\\s\\S]*HINT:', replies: ['\\boxed{$1}'] },
    { purpose: 'agent', replies: ['\\boxed{door}'] },
  ],
};

/** A run's epochs one after another in one sandbox against the stand-in; `epoch` resolves with the epoch's critical path. */
export interface EpochRunner {
  epoch(config: Config): Promise<number>;
  close(): Promise<void>;
  /** With the Node sandbox: interpreters booted so far and the time loads waited for one, summed. */
  interpreters?(): { boots: number; waitMs: number; killed: number };
}

// The fake or the Node sandbox in this process. The real sandbox starts as a command would: its first spare booted, nothing else.
// The adapter retries as the app's and the CLI's do: a connection reset on a loaded machine (seen once at reference scale) is retried, not fatal.
async function localRunner(kind: 'fake' | 'node', origin: string): Promise<EpochRunner> {
  const model = new OpenAIChatModel({ baseUrl: origin, model: 'stand-in' });
  const node = kind === 'node' ? createNodeSandboxRuntime() : null;
  const sandbox = node ?? fakeSandbox(HINT_HELPS_DOUBLES);
  await sandbox.warm();
  let state = INITIAL_RUN_STATE;
  return {
    ...(node
      ? { interpreters: () => ({ boots: node.boots, waitMs: node.interpreterWaitMs, killed: node.restarts }) }
      : {}),
    async epoch(config) {
      const result = await runEpoch({ model, sandbox, corpus: [], now: () => performance.now() }, state, config);
      state = result.nextState;
      return criticalPath(result);
    },
    close: () => sandbox.close(),
  };
}

/** Runs `EPOCHS` epochs through the OpenAI adapter against a stand-in answering every request after `latencyMs`; counts each epoch's requests and the most in flight. */
async function timedEpochs(config: Config, latencyMs: number, kind: BenchSandbox): Promise<ConcurrencyRun[]> {
  const server = await FakeOpenAIServer.start({ cors: kind === 'browser' });
  const respond = scriptedResponder(new ScriptedChatModel(SCRIPT), { pieces: 'whole' });
  let inFlight = 0;
  let maxInFlight = 0;
  let requests = 0;
  server.respondWith(async (body, path): Promise<Reply> => {
    if (!path.endsWith('/chat/completions')) return respond(body, path);
    requests += 1;
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    const [reply] = await Promise.all([respond(body), new Promise((resolve) => setTimeout(resolve, latencyMs))]);
    return async (res) => {
      try {
        await reply(res);
      } finally {
        inFlight -= 1;
      }
    };
  });
  try {
    const runner =
      kind === 'browser'
        ? await (await import('./concurrency-browser.ts')).browserRunner(server.origin)
        : await localRunner(kind, server.origin);
    try {
      const runs: ConcurrencyRun[] = [];
      for (let epoch = 1; epoch <= EPOCHS; epoch++) {
        [requests, maxInFlight] = [0, 0];
        const started = performance.now();
        const before = runner.interpreters?.();
        const path = await runner.epoch(config);
        const ms = performance.now() - started;
        const after = runner.interpreters?.();
        const used =
          before && after
            ? {
                boots: after.boots - before.boots,
                waitMs: after.waitMs - before.waitMs,
                killed: after.killed - before.killed,
              }
            : undefined;
        runs.push({
          concurrency: config.concurrency,
          epoch,
          criticalPath: path,
          ms,
          estimated: false,
          requests,
          maxInFlight,
          ...(used ? { interpreters: used } : {}),
        });
      }
      return runs;
    } finally {
      await runner.close();
    }
  } finally {
    await server.close();
  }
}

/**
 * An epoch at concurrency 1 and at `concurrency` against a local OpenAI-compatible stand-in with a
 * fixed latency per request, its environments in `sandbox` (the fake shows the schedule alone;
 * the Node sandbox, what a command gets; the browser one, what a tab gets, the stand-in then
 * answering the page across origins). With `estimateSequential`, concurrency 1 is not run but
 * estimated as requests x latency.
 */
export async function measureConcurrency(
  name: string,
  scale: { slots: number; plays: number; concurrency: number },
  latencyMs: number,
  sandbox: BenchSandbox,
  estimateSequential: boolean,
): Promise<ConcurrencyFigures> {
  const { slots, plays } = scale;
  const config: Config = {
    ...DEFAULT_CONFIG,
    seed: 3,
    slotsPerEpoch: slots,
    playsPerArm: plays,
    hintPlays: plays,
    rolloutsPerEpoch: 1,
    maxTurns: 12,
    useCorpus: false,
    concurrency: scale.concurrency,
  };
  const concurrent = await timedEpochs(config, latencyMs, sandbox);
  const sequential = estimateSequential
    ? concurrent.map((run) => ({
        ...run,
        concurrency: 1,
        ms: run.requests * latencyMs,
        estimated: true,
        maxInFlight: 1,
      }))
    : await timedEpochs({ ...config, concurrency: 1 }, latencyMs, sandbox);
  return { name, sandbox, slots, plays, latencyMs, runs: [...sequential, ...concurrent] };
}

/** The figures as the bench prints them: per epoch, concurrency 1 against the scale's concurrency, with the ideal. */
export function formatConcurrencyFigures(f: ConcurrencyFigures): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const lines = [
    `Concurrent epochs, ${f.name}, ${SANDBOX_NAMES[f.sandbox]} (${f.slots} slots x K = ${f.plays}, stand-in server at ${f.latencyMs} ms per request)`,
  ];
  // Interpreters booted in the epoch and the seconds loads waited for one in all (several wait at once, so it can exceed the epoch).
  const used = (run: ConcurrencyRun) =>
    run.interpreters
      ? `   ${run.interpreters.boots} interpreters booted, ${run.interpreters.killed} killed, ${s(run.interpreters.waitMs)} waited for one in all`
      : '';
  for (let epoch = 1; epoch <= EPOCHS; epoch++) {
    const one = f.runs.find((r) => r.epoch === epoch && r.concurrency === 1)!;
    const many = f.runs.find((r) => r.epoch === epoch && r.concurrency !== 1)!;
    const ideal = many.criticalPath * f.latencyMs;
    const bound = Math.max(many.criticalPath, Math.ceil(many.requests / many.concurrency)) * f.latencyMs;
    lines.push(
      `  epoch ${epoch}${epoch === 1 ? ` (the sandbox as ${f.sandbox === 'browser' ? 'the app' : 'a command'} starts it)` : ' (interpreters of epoch 1)'}`,
      `    concurrency 1               ${s(one.ms)}${one.estimated ? ' (estimated: requests x latency)' : ''}   max in flight ${one.maxInFlight}   (${one.requests} requests)${one.estimated ? '' : used(one)}`,
      `    concurrency ${String(many.concurrency).padEnd(16)}${s(many.ms)}   max in flight ${many.maxInFlight}   (${many.requests} requests)${used(many)}`,
      `    ratio                       ${(one.ms / many.ms).toFixed(1)}x`,
      `    ideal (critical path)       ${s(ideal)}   (${many.criticalPath} requests x ${f.latencyMs} ms; the concurrent epoch is ${(many.ms / ideal).toFixed(2)}x it)`,
      `    best at concurrency ${String(many.concurrency).padEnd(8)}${s(bound)}   (the critical path, or requests / concurrency, x latency; the concurrent epoch is ${(many.ms / bound).toFixed(2)}x it)`,
    );
    if (f.sandbox === 'browser' && many.concurrency > CHROMIUM_CONNECTIONS) {
      const capped = Math.max(many.criticalPath, Math.ceil(many.requests / CHROMIUM_CONNECTIONS)) * f.latencyMs;
      lines.push(
        `    best with ${CHROMIUM_CONNECTIONS} connections     ${s(capped)}   (Chromium opens at most ${CHROMIUM_CONNECTIONS} HTTP/1.1 connections to one server: requests / ${CHROMIUM_CONNECTIONS} x latency; the concurrent epoch is ${(many.ms / capped).toFixed(2)}x it)`,
      );
    }
  }
  return [...lines, ''].join('\n');
}
