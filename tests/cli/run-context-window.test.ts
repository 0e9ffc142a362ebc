// Done when (issue 29): against an OpenAI-compatible server that reports max_model_len 4096 and
// refuses over-long requests as vLLM does, `spade run` with memory and corpus on completes two
// epochs with no refused request and the same numbers as with a large window.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseChatScript } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { scriptedModel } from '../../src/adapters/llm/scripted/scripted-learner.ts';
import type { EnvironmentRecord, Episode, EpochMetrics } from '../../src/core/records.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';
import { inProcessSpade, ROOT } from './spade-cli.ts';
import { startVllmStandIn, type StandInLog } from './vllm-stand-in.ts';

const spade = inProcessSpade();
const DEMO = parseChatScript(JSON.parse(readFileSync(join(ROOT, 'public/demo/demo-script.json'), 'utf8')));
const lines = <T>(dir: string, file: string): T[] =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

async function runAgainst(
  window: number,
): Promise<{ out: string; status: number | null; stderr: string; log: StandInLog }> {
  const { server, log } = await startVllmStandIn(scriptedModel(DEMO), window);
  const out = tempDir('spade-window-');
  try {
    const result = await spade(
      'run',
      ...['--model', `openai:${server.origin}/v1#qwen3-stand-in`, '--out', out, '--epochs', '2', '--seed', '4'],
      ...['--skills', 'Mathematical Reasoning,Logical Deduction', '--slots', '2', '--plays', '2', '--repair'],
      // The script answers some requests in turn, so they must come one at a time.
      ...['--concurrency', '1'],
    );
    return { out, status: result.status, stderr: result.stderr, log };
  } finally {
    await server.close();
  }
}

/** The run's numbers: every environment's status and stats, every play's return, and each epoch's metrics without the token figures. */
function numbers(out: string) {
  const envs = lines<EnvironmentRecord>(out, 'environments.jsonl').map((e) => [e.id, e.status, e.stats, e.hint]);
  const returns = lines<Episode>(out, 'episodes.jsonl').map((e) => [e.id, e.return, e.dropped]);
  const metrics = lines<EpochMetrics>(out, 'epochs.jsonl').map(
    ({ promptTokens: _p, completionTokens: _c, promptBudget: _b, ...rest }) => rest,
  );
  return { envs, returns, metrics };
}

describe('spade run against a server with a 4,096-token context', () => {
  it('completes two epochs with memory and corpus on, no request refused, with the numbers of a large window', async () => {
    const small = await runAgainst(4096);
    expect(small.stderr).toBe('');
    expect(small.status).toBe(0);
    expect(small.log.refused).toEqual([]);
    expect(small.log.cut).toBe(0);
    expect(small.log.largestRequest).toBeLessThanOrEqual(4096);
    const large = await runAgainst(131_072);
    expect(large.status).toBe(0);
    expect(large.log.refused).toEqual([]);
    expect(numbers(small.out)).toEqual(numbers(large.out));

    const envs = lines<EnvironmentRecord>(small.out, 'environments.jsonl');
    expect(envs.some((e) => e.epoch === 1 && e.memoryShown.positives.length > 0)).toBe(true);
    expect(envs.every((e) => e.docId !== null)).toBe(true);
    const metrics = lines<EpochMetrics>(small.out, 'epochs.jsonl');
    expect(metrics).toHaveLength(2);
    // With the large window the same requests asked for more than 4,096 tokens; here some prompts were trimmed to fit.
    expect(large.log.largestRequest).toBeGreaterThan(4096);
    expect(metrics.some((m) => Object.values(m.promptBudget ?? {}).some((role) => role.trimmed > 0))).toBe(true);
    for (const m of metrics) {
      expect(m.promptBudget?.designer?.window).toBe(4096);
      // Sent as configured (4096), every design would be refused: the budget lowered max_tokens.
      expect(m.promptBudget!.designer!.minMaxTokens).toBeLessThan(4096);
      expect(m.promptBudget!.agent!.maxPromptTokens + m.promptBudget!.agent!.minMaxTokens).toBeLessThanOrEqual(4096);
    }
  }, 600_000);
});
