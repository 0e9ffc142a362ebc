// Attack: an imported "valid" tool-use environment whose get_tools() lists one name twice must fail
// its play before any request, so two functions of one name never reach a model server.
import { describe, expect, it } from 'vitest';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import type { ToolFacts } from '../../../src/core/env/tool-use-facts.ts';
import { playToolTurns, type ToolEpisodeLog } from '../../../src/core/loop/play-tool-episode.ts';
import type { ChatModel, ChatRequest } from '../../../src/core/ports/chat-port.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { DEFAULT_CONFIG } from '../../../src/core/config.ts';
import { roleThinking } from '../../../src/core/thinking.ts';

const tool = (name: string, values: unknown[]) => ({
  type: 'function',
  function: { name, description: 'Set it.', parameters: { type: 'object', properties: { level: { enum: values } } } },
});

describe('a tool listed twice at play', () => {
  it('fails the episode with tool_name_duplicate and sends no request', async () => {
    const sent: ChatRequest[] = [];
    const model = {
      id: 'recording',
      complete: (request: ChatRequest) => (sent.push(request), Promise.reject(new Error('no reply'))),
    } as unknown as ChatModel;
    const facts: ToolFacts = {
      methods: ['set_level'],
      tools: [tool('set_level', [1, '1']), tool('set_level', [1, '1'])],
      toolsError: null,
      messages: null,
      criteria: null,
      current: null,
    };
    const log: ToolEpisodeLog = { messages: [], turns: [], usage: { promptTokens: 0, completionTokens: 0 } };
    const spec = {
      seed: 1,
      hint: null,
      maxTurns: 3,
      stepTimeoutMs: 1000,
      sampling: DEFAULT_CONFIG.agent,
      thinking: roleThinking(DEFAULT_CONFIG, 'agent'),
      template: '{observation}',
      modelSeedKey: 'k',
    };
    const error = await playToolTurns(model, {} as EnvHandle, spec, facts, 'Set the dial.', log).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isEnvError(error) && error.code).toBe('tool_name_duplicate');
    expect((error as Error).message).toContain('the tool set_level listed 2 times');
    expect(sent).toEqual([]);
  });
});
