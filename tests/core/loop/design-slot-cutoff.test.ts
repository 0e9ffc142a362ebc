// A designer reply that stopped at the token limit is told it was cut off in the repair turn, not
// that its code has a syntax error.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { failureToEnvError } from '../../../src/core/env/contract.ts';
import { designSlot } from '../../../src/core/loop/design-slot.ts';
import type { ChatModel, ChatRequest } from '../../../src/core/ports/chat-port.ts';
import type { SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';

// Bare code that stops mid-expression: what a model writes when it runs out of tokens without a fence.
const CUT =
  'import random\n\nclass TideEnv:\n    def reset(self, seed=None):\n        self.level = random.Random(seed).randint(';

// A sandbox that finds every load a syntax error at the last line, as Python does for the code above.
const sandbox: SandboxRuntime = {
  warm: async () => undefined,
  checkSyntax: async () => ({ ok: true }),
  close: async () => undefined,
  load: async (_code, options) => {
    throw failureToEnvError(
      { ok: false, error: 'syntax', msg: "'(' was never closed", line: 5 },
      'load',
      options.stage ?? 'load',
    );
  },
};

function model(finishReason: 'stop' | 'length'): { model: ChatModel; asked: ChatRequest[] } {
  const asked: ChatRequest[] = [];
  return {
    asked,
    model: {
      id: 'stub',
      complete: async (request) => {
        asked.push(request);
        return { text: CUT, usage: { promptTokens: 10, completionTokens: 10 }, finishReason };
      },
    },
  };
}

const CONFIG: Config = { ...DEFAULT_CONFIG, attemptsPerSlot: 2, repairMode: true, useCorpus: false, useMemory: false };

async function repairMessage(finishReason: 'stop' | 'length'): Promise<string> {
  const { model: m, asked } = model(finishReason);
  await designSlot({
    ...{
      epoch: 0,
      slot: 0,
      skill: 'Spatial Reasoning',
      envId: 'e0000-s00',
      config: CONFIG,
      corpus: [],
      memory: [],
      model: m,
      sandbox,
    },
    ...{ onAttemptStart: () => undefined, onToken: () => undefined, onValidated: () => undefined },
  });
  expect(asked.map((r) => r.purpose)).toEqual(['designer', 'repair']);
  return asked[1]!.messages.at(-1)!.content;
}

describe('a designer reply cut off at the token limit', () => {
  it('gets a repair turn saying it was cut off', async () => {
    const message = await repairMessage('length');
    expect(message).toContain('the reply was cut off before the code was complete (it reached the token limit)');
    expect(message).not.toContain('SyntaxError');
  });

  it('a reply that ended on its own keeps the syntax message', async () => {
    expect(await repairMessage('stop')).toContain("SyntaxError: '(' was never closed at line 5");
  });
});
