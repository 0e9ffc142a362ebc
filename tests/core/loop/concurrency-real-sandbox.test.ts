// The run files do not notice the concurrency with the real Node sandbox either: every play in an
// interpreter of its own (booted, or restored after an earlier environment), plays loaded ahead,
// 32 at once against 1. The in-process doubles of concurrency.test.ts cover crashes and hangs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { ScriptedChatModel, type ChatScript } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { FileRunStore } from '../../../src/adapters/store/file-run-store.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE } from '../../../src/core/loop/epoch.ts';
import { runEpochs } from '../../../src/core/loop/run-epochs.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';
import { clocklessRunFiles, readRunFiles } from '../../fixtures/run-files.ts';

const GLOW_KEY = (
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')) as ChatScript
).rules[0]!.replies[0]!;
const KEYS = ['amber', 'cobalt', 'jade'];

// Replies from the request alone, so they cannot depend on the order of calls: hinted plays take the glowing key, unhinted ones a key by the request's seed.
function reply(request: ChatRequest): string {
  if (request.purpose === 'designer' || request.purpose === 'repair') return GLOW_KEY;
  if (request.purpose === 'hint') return 'Use the key that glows. Answer as \\boxed{name}.';
  const text = request.messages.map((m) => m.content).join('\n');
  const glowing = /The (\w+) key glows/.exec(text)?.[1] ?? 'amber';
  return `\\boxed{${/HINT:/.test(text) ? glowing : KEYS[request.seed % KEYS.length]}}`;
}

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 9,
  slotsPerEpoch: 3,
  playsPerArm: 3,
  hintPlays: 3,
  rolloutsPerEpoch: 2,
  maxTurns: 3,
  useCorpus: false,
  evalEvery: 0,
};

let sandbox: PyodideSandboxRuntime;
beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  await sandbox.warm();
});
afterAll(() => sandbox.close());

async function runToFiles(concurrency: number): Promise<Record<string, string>> {
  const dir = join(tempDir('spade-concurrency-real-'), 'run');
  const store = new FileRunStore(dir);
  const config = { ...CONFIG, concurrency };
  const model = new ScriptedChatModel(reply, 'stateless', () => Math.floor(Math.random() * 3));
  await store.createRun({
    id: 'run',
    name: 'run',
    createdAt: 0,
    updatedAt: 0,
    config,
    modelId: model.id,
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: 1,
    lastError: null,
  });
  await runEpochs(
    { model, sandbox, corpus: [], commit: (result) => store.commitEpoch('run', result) },
    INITIAL_RUN_STATE,
    config,
    1,
  );
  return readRunFiles(dir);
}

describe('concurrency changes no result, in the real sandbox', () => {
  it('writes byte-identical run files at concurrency 1 and 32 (timings and updatedAt aside)', async () => {
    const one = await runToFiles(1);
    const restoredBefore = sandbox.recycled;
    const many = await runToFiles(32);
    // The second run's plays ran in interpreters restored after the first run's.
    expect(sandbox.recycled).toBeGreaterThan(restoredBefore);
    expect(Object.keys(many).sort()).toEqual(Object.keys(one).sort());
    const expected = clocklessRunFiles(one);
    for (const [name, text] of Object.entries(clocklessRunFiles(many, { from: 32, to: 1 })))
      expect(text, name).toBe(expected[name]);
    // Both arms were played and the unhinted arm both won and lost.
    const episodes = one['episodes.jsonl']!.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { arm: string; return: number });
    expect(episodes.filter((e) => e.arm === 'hint').every((e) => e.return === 1)).toBe(true);
    expect(new Set(episodes.filter((e) => e.arm === 'nohint').map((e) => e.return))).toEqual(new Set([0, 1]));
  });
});
