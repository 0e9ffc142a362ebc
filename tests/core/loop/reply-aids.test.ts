// The replyAids knob reaches every reader: a game's actions and first message, and the hint.
import { describe, expect, it } from 'vitest';
import { roleThinking } from '../../../src/core/thinking.ts';
import { DEFAULT_CONFIG, REFERENCE_PRESET } from '../../../src/core/config.ts';
import { hintEnvironment } from '../../../src/core/loop/hint-environment.ts';
import { playEpisode } from '../../../src/core/loop/play-episode.ts';
import type { ChatMessage, ChatModel } from '../../../src/core/ports/chat-port.ts';
import type { StepResult } from '../../../src/core/env/contract.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { ONE_BOX_NOTE } from '../../../src/core/prompts/agent-prompt.ts';
import type { EnvironmentRecord } from '../../../src/core/records.ts';

const REPLY = 'A or \\boxed{read 3}? Best is \\boxed{\\text{read}\\ 7}.';

function model(text: string, seen: ChatMessage[][] = []): ChatModel {
  return {
    id: 'fixed',
    complete: async (request) => {
      seen.push(request.messages);
      return { text, usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' };
    },
  };
}

// A one-turn game that records the action it was sent.
function recordingGame(actions: string[]): EnvHandle {
  const step = async (action: string): Promise<StepResult> => {
    actions.push(action);
    return { observation: 'over', reward: 1, terminated: true, truncated: false, info: {} };
  };
  return {
    className: 'G',
    hasSolution: false,
    reset: async () => ({ observation: 'Pick a card.', info: {} }),
    step,
    renew: async () => undefined,
    toolFacts: async () => null,
    executeTool: async () => {
      throw new Error('this fake has no tools outside step');
    },
    solution: async () => null,
    dispose: async () => undefined,
  };
}

async function playOnce(replyAids: boolean) {
  const actions: string[] = [];
  const seen: ChatMessage[][] = [];
  const spec = {
    seed: 1,
    hint: null,
    maxTurns: 1,
    stepTimeoutMs: 1000,
    sampling: DEFAULT_CONFIG.agent,
    thinking: roleThinking(DEFAULT_CONFIG, 'agent'),
    template: DEFAULT_CONFIG.prompts.agent,
    modelSeedKey: 'k',
    replyAids,
  };
  await playEpisode(model(REPLY, seen), recordingGame(actions), spec);
  return { action: actions[0], first: seen[0]![0]!.content };
}

describe('the replyAids knob', () => {
  it('with the aids a game gets the last box, unwrapped, and the first message asks for one box at the end', async () => {
    const { action, first } = await playOnce(true);
    expect(action).toBe('\\boxed{read 7}');
    expect(first.endsWith(ONE_BOX_NOTE)).toBe(true);
  });

  it("without them (the reference preset) the first simple box and the template's own wording", async () => {
    const { action, first } = await playOnce(REFERENCE_PRESET.replyAids!);
    expect(action).toBe('\\boxed{read 3}');
    expect(first).toBe(DEFAULT_CONFIG.prompts.agent.replace('{observation}', 'Pick a card.'));
  });

  it('reaches the hint cleaner', async () => {
    const env = {
      id: 'e0000-s00',
      epoch: 0,
      slot: 0,
      skill: 'Optimization',
      code: 'class G: pass',
    } as EnvironmentRecord;
    const reply = 'Hint: Use a step such as 2.5 if needed. Hold M first.';
    const tab = await hintEnvironment(env, model(reply), DEFAULT_CONFIG, () => undefined);
    const reference = await hintEnvironment(
      env,
      model(reply),
      { ...DEFAULT_CONFIG, replyAids: false },
      () => undefined,
    );
    expect(tab.hint).toBe('Use a step such as 2.5 if needed. Hold M first.');
    expect(reference.hint).toBe(reply);
  });
});
