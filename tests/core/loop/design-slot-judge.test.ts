// The solvability judge inside designSlot and the epoch, with an in-process fake tool-use
// environment (the sandbox is not the point here; the real-sandbox table is in
// tests/core/env/validate-tool-use.test.ts): a "no" rejects the attempt at the judge stage and is
// recorded on it, the next attempt (a repair, or a fresh design) follows as after any rejection,
// and the judge's tokens count in the epoch's tokens.
import { describe, expect, it } from 'vitest';
import { fakeSandbox, type FakeInstance } from '../../fixtures/fake-sandbox.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import { buildJudgePrompt } from '../../../src/core/env/solvability-judge.ts';
import { designSlot, type SlotDesign } from '../../../src/core/loop/design-slot.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import type { ValidationReport } from '../../../src/core/env/validate-env.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { buildRepairPrompt } from '../../../src/core/prompts/designer-prompt.ts';

// A single-task tool-use environment: one tool, nothing ends the episode before the turn cap.
function lookupDesk(maxTurns: number): FakeInstance {
  let turns = 0;
  return {
    reset: () => ((turns = 0), { observation: 'Which shelf holds Dune? Reply <answer>shelf</answer>.', info: {} }),
    step: () => ({
      observation: 'Tool result:\nB4',
      reward: 0,
      terminated: false,
      truncated: ++turns >= maxTurns,
      info: {},
    }),
    toolFacts: () => ({
      methods: ['lookup'],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Shelf of a book.', parameters: { type: 'object', properties: {} } },
        },
      ],
      toolsError: null,
      messages: null,
      criteria: null,
      current: 0,
    }),
  };
}

const CODE = 'LookupDeskEnv';
const DESIGN = `Here it is.\n\n\`\`\`python\n${CODE}\n\`\`\``;
const CONFIG: Config = {
  ...withSetting(DEFAULT_CONFIG, 'tool_use'),
  attemptsPerSlot: 2,
  repairMode: true,
  solvabilityJudge: true,
  useCorpus: false,
  maxTurns: 2,
};

/** A model whose judge gives `verdicts` in turn (the last repeats) and whose designer always sends the fake's code. */
function judgingModel(verdicts: string[]) {
  const asked: ChatRequest[] = [];
  const model = new ScriptedChatModel((request) => {
    asked.push(request);
    if (request.purpose === 'judge')
      return verdicts[Math.min(asked.filter((r) => r.purpose === 'judge').length - 1, verdicts.length - 1)];
    if (request.purpose === 'hint') return 'HINT: look the book up, then answer its shelf.';
    if (request.purpose === 'agent') return '<tool_call>{"name": "lookup", "arguments": {}}</tool_call>';
    return DESIGN;
  });
  return { model, asked };
}

async function design(
  config: Config,
  verdicts: string[],
): Promise<{ slot: SlotDesign; asked: ChatRequest[]; reports: ValidationReport[] }> {
  const { model, asked } = judgingModel(verdicts);
  const reports: ValidationReport[] = [];
  const slot = await designSlot({
    ...{
      epoch: 0,
      slot: 0,
      skill: 'Data Retrieval',
      envId: 'e0000-s00',
      config,
      corpus: [],
      memory: [],
      model,
      sandbox: fakeSandbox({ [CODE]: lookupDesk }),
    },
    ...{
      onAttemptStart: () => undefined,
      onToken: () => undefined,
      onValidated: (_: number, report: ValidationReport) => void reports.push(report),
    },
  });
  return { slot, asked, reports };
}

const NO = 'Nothing says where Dune is kept. \\boxed{no}';
const YES = 'lookup returns it. \\boxed{yes}';

describe('the solvability judge in a designed slot', () => {
  it('a "no" rejects the attempt with judge_unsolvable at the judge stage, recorded on the attempt; the repair feeds that message back and is judged again', async () => {
    const { slot, asked, reports } = await design(CONFIG, [NO, YES]);
    const [rejected, repaired] = slot.attempts;
    expect(rejected!.validation).toMatchObject({
      ok: false,
      stage: 'judge',
      code: 'judge_unsolvable',
      className: 'FakeEnv',
    });
    expect(rejected!.validation.message).toContain(
      'Saw the verdict \\boxed{no}, reasoning: "Nothing says where Dune is kept. \\boxed{no}"',
    );
    expect(rejected!.judge).toMatchObject({
      messages: buildJudgePrompt(`${CODE}\n`, CONFIG.prompts),
      reply: NO,
      verdict: 'no',
    });
    expect(rejected!.judge!.usage!.completionTokens).toBeGreaterThan(0);
    expect(reports.map((r) => [r.ok, r.code, r.stages.at(-1)!.stage])).toEqual([
      [false, 'judge_unsolvable', 'judge'],
      [true, null, 'determinism'],
    ]);
    expect(repaired).toMatchObject({ repair: true, validation: { ok: true, code: null }, judge: { verdict: 'yes' } });
    expect(repaired!.messages).toEqual(
      buildRepairPrompt(rejected!.messages, DESIGN, rejected!.validation.message!, CONFIG.prompts),
    );
    expect(slot.valid).toBe(repaired);
    expect(asked.map((r) => r.purpose)).toEqual(['designer', 'judge', 'repair', 'judge']);
    const designerOn: Config = { ...CONFIG, thinking: { ...CONFIG.thinking, designer: 'on' } };
    const { asked: thinking } = await design(designerOn, [YES]);
    const withBudget = CONFIG.designer.maxTokens + CONFIG.thinkingBudget.designer;
    expect(thinking.map((r) => [r.purpose, r.thinking, r.maxTokens])).toEqual([
      ['designer', true, withBudget],
      ['judge', true, withBudget],
    ]);
  });

  it('without repair mode the next attempt is a fresh design; a judge that always says no leaves the slot without a valid design', async () => {
    const { slot, asked } = await design({ ...CONFIG, repairMode: false }, [NO]);
    expect(slot.attempts.map((a) => [a.repair, a.validation.code, a.judge?.verdict])).toEqual([
      [false, 'judge_unsolvable', 'no'],
      [false, 'judge_unsolvable', 'no'],
    ]);
    expect(slot.attempts[1]!.messages).toEqual(slot.attempts[0]!.messages);
    expect(slot.valid).toBeNull();
    expect(asked.map((r) => r.purpose)).toEqual(['designer', 'judge', 'designer', 'judge']);
  });

  it("the judge's tokens count in the epoch's tokens: the same epoch with the judge on costs exactly its judge call more", async () => {
    const epoch = async (solvabilityJudge: boolean) => {
      const config: Config = { ...CONFIG, solvabilityJudge, slotsPerEpoch: 1, playsPerArm: 1, hintPlays: 1 };
      return runEpoch(
        { model: judgingModel([YES]).model, sandbox: fakeSandbox({ [CODE]: lookupDesk }), corpus: [] },
        INITIAL_RUN_STATE,
        config,
      );
    };
    const [judged, unjudged] = [await epoch(true), await epoch(false)];
    const judge = judged.environments[0]!.attempts[0]!.judge!;
    expect(judge.verdict).toBe('yes');
    expect(unjudged.environments[0]!.attempts[0]!.judge).toBeUndefined();
    expect(judged.metrics.promptTokens - unjudged.metrics.promptTokens).toBe(judge.usage!.promptTokens);
    expect(judged.metrics.completionTokens - unjudged.metrics.completionTokens).toBe(judge.usage!.completionTokens);
    expect(judge.usage!.promptTokens).toBeGreaterThan(0);
  });
});
