// What a slot's validation is given from the run's knobs: under the reference preset the reference's
// code extraction, base class and checks; under the tab defaults the aided ones.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withPreset, type Config } from '../../../src/core/config.ts';
import { designSlot } from '../../../src/core/loop/design-slot.ts';
import type { ChatModel } from '../../../src/core/ports/chat-port.ts';
import type { LoadOptions, SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { envError } from '../../../src/core/env/env-error.ts';

// A reply whose only fence is ```py: the tab reads it, the reference's exact ```python rule takes the whole reply.
const REPLY = 'Here it is.\n```py\nclass TideEnv:\n    pass\n```';

/** A sandbox that records what each load was given, then refuses it (the verdict is not the point). */
function recording(): { sandbox: SandboxRuntime; loads: Array<{ code: string; options: LoadOptions }> } {
  const loads: Array<{ code: string; options: LoadOptions }> = [];
  const sandbox: SandboxRuntime = {
    warm: async () => undefined,
    checkSyntax: async () => ({ ok: true }),
    close: async () => undefined,
    load: async (code, options) => {
      loads.push({ code, options });
      throw envError('no_env_class', options.stage ?? 'load', {
        expected: 'a class',
        seen: 'none',
        fix: 'none: a test',
      });
    },
  };
  return { sandbox, loads };
}

const model: ChatModel = {
  id: 'stub',
  complete: async () => ({ text: REPLY, usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' }),
};

async function loadsUnder(config: Config): Promise<Array<{ code: string; options: LoadOptions }>> {
  const { sandbox, loads } = recording();
  await designSlot({
    ...{
      epoch: 0,
      slot: 0,
      skill: config.skills[0]!,
      envId: 'e0000-s00',
      config: { ...config, attemptsPerSlot: 1, useCorpus: false, useMemory: false },
      corpus: [],
      memory: [],
      model,
      sandbox,
    },
    ...{ onAttemptStart: () => undefined, onToken: () => undefined, onValidated: () => undefined },
  });
  return loads;
}

describe("a slot's validation under each preset", () => {
  it("the tab defaults read any python fence and load with the aided base class; the reference preset takes the reference's exact fence and base class", async () => {
    const [tab] = await loadsUnder(DEFAULT_CONFIG);
    const [reference] = await loadsUnder(withPreset(DEFAULT_CONFIG, 'reference'));
    expect(tab!.code).toBe('class TideEnv:\n    pass\n');
    expect(tab!.options.toolBaseAids).toBe(true);
    expect(reference!.code).toBe(`${REPLY}\n`);
    expect(reference!.options.toolBaseAids).toBe(false);
  });
});
