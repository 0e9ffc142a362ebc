import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.ts';
import { hintEnvironment } from '../../../src/core/loop/hint-environment.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import type { EnvironmentRecord } from '../../../src/core/records.ts';
import { environmentSetting } from '../../../src/core/skills.ts';

const CODE = 'class TaskEnv: pass';
const record = (skill: string, domain?: string) =>
  ({ id: 'e0000-s00', epoch: 0, slot: 0, skill, code: CODE, ...(domain ? { domain } : {}) }) as EnvironmentRecord;

/** The hint prompt hintEnvironment sends for an environment in a run of `setting`. */
async function hintPrompt(env: EnvironmentRecord, setting: 'games' | 'tool_use'): Promise<string> {
  let sent = '';
  const model = {
    id: 'test',
    complete: async (request: ChatRequest) => {
      sent = request.messages[0]!.content;
      return {
        text: 'Check the state first.',
        usage: { promptTokens: 1, completionTokens: 1 },
        finishReason: 'stop' as const,
      };
    },
  };
  await hintEnvironment(env, model, { ...DEFAULT_CONFIG, setting }, () => undefined);
  return sent;
}

// A fixed pool may mix games and tool-use environments: each hint is asked in the environment's own setting.
describe('the setting a hint is asked in', () => {
  it("is the environment's own in a mixed pool, and the run's for a skill of neither setting", async () => {
    const toolHint = DEFAULT_TEMPLATES.toolHint.replace('{code}', CODE);
    const gameHint = DEFAULT_TEMPLATES.hint.replace('{code}', CODE);
    await expect(hintPrompt(record('Error Recovery'), 'games')).resolves.toBe(toolHint);
    await expect(hintPrompt(record('Optimization'), 'tool_use')).resolves.toBe(gameHint);
    await expect(hintPrompt(record('Pool Skill', 'a smart home'), 'games')).resolves.toBe(toolHint);
    await expect(hintPrompt(record('Pool Skill'), 'tool_use')).resolves.toBe(toolHint);
    expect(environmentSetting({ skill: 'Pool Skill' }, 'games')).toBe('games');
  });
});
