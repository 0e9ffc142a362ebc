import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withSetting } from '../../../src/core/config.ts';
import {
  buildJudgePrompt,
  judgeRejection,
  judgeSolvability,
  parseJudgeVerdict,
} from '../../../src/core/env/solvability-judge.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';

describe('the solvability judge', () => {
  it.each([
    ['Every criterion has a tool. \\boxed{YES}', 'yes'],
    ['\\boxed{ y }', 'yes'],
    ['\\boxed{true}', 'yes'],
    ['criterion 2 reads a key no tool writes. \\boxed{no}', 'no'],
    ['\\boxed{maybe}', 'no'],
    ['At first I thought \\boxed{no}, but tool_ship writes it: \\boxed{yes}', 'yes'],
    ['<think>\\boxed{no}</think> It is fine.', null],
    ['I cannot decide.', null],
    ['', null],
  ] as const)('reads %j as %s', (reply, verdict) => {
    expect(parseJudgeVerdict(reply)).toBe(verdict);
  });

  it("asks with the run's judge template, the code last, at the hint's temperature", async () => {
    const seen: unknown[] = [];
    const model = new ScriptedChatModel((request) => {
      seen.push({ purpose: request.purpose, temperature: request.temperature, seed: request.seed });
      return 'No tool sets it. \\boxed{NO}';
    });
    const record = await judgeSolvability(
      model,
      'class AEnv(ToolUseBaseEnv): pass',
      withSetting(DEFAULT_CONFIG, 'tool_use'),
      99,
    );
    expect(record.messages).toEqual(buildJudgePrompt('class AEnv(ToolUseBaseEnv): pass', DEFAULT_TEMPLATES));
    expect(
      record.messages[0]!.content.endsWith(
        'class AEnv(ToolUseBaseEnv): pass\n```\n\nThink it through, then end with your verdict: \\boxed{YES} when it is solvable, \\boxed{NO} when it is impossible.',
      ),
    ).toBe(true);
    expect(record.verdict).toBe('no');
    expect(seen).toEqual([{ purpose: 'judge', temperature: DEFAULT_CONFIG.hint.temperature, seed: 99 }]);
  });

  it('rejects with a stable code at its own stage, quoting the reasoning and saying how to fix it', () => {
    const error = judgeRejection({
      messages: [],
      reply: '<think>hmm</think>Criterion 2 needs status "closed", which no tool writes. \\boxed{no}',
      verdict: 'no',
    });
    expect([error.code, error.stage]).toEqual(['judge_unsolvable', 'judge']);
    expect(error.message).toMatch(
      /^Expected the solvability judge .*\. Saw the verdict \\boxed\{no\}, reasoning: "Criterion 2 needs status "closed", which no tool writes\. \\boxed\{no\}"\. Fix: make every criterion reachable: .*switch the solvability judge off if it is wrong\.$/,
    );
  });
});
