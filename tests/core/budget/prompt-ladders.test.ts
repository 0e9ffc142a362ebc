import { describe, expect, it } from 'vitest';
import {
  designerInputLevels,
  designerLadder,
  repairLadder,
  SHORT_EXAMPLE_CHARS,
} from '../../../src/core/prompts/designer-ladder.ts';
import { historyLadder, TOOL_RESULT_CUTS, type AgentHistory } from '../../../src/core/prompts/history-ladder.ts';
import { agentFirstMessage, PLAYBOOK_HEADING } from '../../../src/core/prompts/agent-prompt.ts';
import { buildDesignerPrompt, type DesignerPromptInput } from '../../../src/core/prompts/designer-prompt.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import type { MemoryRecord } from '../../../src/core/loop/memory.ts';
import type { ChatMessage } from '../../../src/core/ports/chat-port.ts';

const record = (envId: string, code: string): MemoryRecord => ({
  envId,
  skill: 'Optimization',
  code,
  winRate: 0.5,
  regret: 0.4,
  epoch: 0,
});
const DOCUMENT = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
const INPUT: DesignerPromptInput = {
  skill: 'Optimization',
  skillDescription: 'finding the best choice under constraints',
  document: DOCUMENT,
  memory: {
    positives: [
      record('e0000-s01', `class KnapEnv:\n${'    x = 1\n'.repeat(200)}`),
      record('e0000-s02', 'class TinyEnv:\n    pass'),
    ],
    negative: { record: record('e0000-s03', 'class EasyEnv: pass'), reason: 'too easy' },
  },
  difficulty: 'medium',
  maxTurns: 12,
};
const CONTRACT = DEFAULT_TEMPLATES.designer.slice(0, DEFAULT_TEMPLATES.designer.indexOf('{'));

describe('the designer prompt at each trim level', () => {
  it('trims in the documented order: excerpt halved, excerpt dropped, example code cut, example code dropped, memory dropped', () => {
    const levels = designerInputLevels(INPUT);
    expect(levels).toHaveLength(6);
    expect(levels[0]).toBe(INPUT);
    expect(levels[1]!.document).toBe(`${DOCUMENT.split(' ').slice(0, 20).join(' ')} …`);
    expect(levels[1]!.memory).toBe(INPUT.memory);
    expect(levels.slice(2).map((l) => l.document)).toEqual([null, null, null, null]);
    expect(levels[2]!.memory).toBe(INPUT.memory);
    expect(levels[3]!.memory!.positives.map((p) => p.code.length)).toEqual([
      SHORT_EXAMPLE_CHARS + '\n# …'.length,
      'class TinyEnv:\n    pass'.length,
    ]);
    expect(levels[4]!.memory!.positives.map((p) => p.code)).toEqual(['', '']);
    expect(levels[4]!.memory!.negative).toEqual(INPUT.memory!.negative);
    expect(levels[5]!.memory).toBeNull();
  });

  it('keeps the fixed contract and the slot\u2019s skill and difficulty at every level, and gets shorter each level', () => {
    const ladder = designerLadder(INPUT, DEFAULT_TEMPLATES);
    const lengths: number[] = [];
    for (let level = 0, messages = ladder(0); messages; messages = ladder(++level)) {
      const text = messages[0]!.content;
      expect(text.startsWith(CONTRACT)).toBe(true);
      expect(text).toContain('Optimization');
      expect(text).toContain('medium');
      lengths.push(text.length);
    }
    expect(lengths).toHaveLength(6);
    expect(lengths.every((n, i) => i === 0 || n < lengths[i - 1]!)).toBe(true);
    expect(ladder(4)![0]!.content).toContain(
      "Reference 1 (skill: Optimization, win rate 0.50, regret 0.40); its code is left out to fit the model's context.",
    );
    expect(ladder(0)).toEqual(buildDesignerPrompt(INPUT, DEFAULT_TEMPLATES));
  });

  it('has one level when nothing is variable (no corpus, no memory)', () => {
    expect(designerInputLevels({ ...INPUT, document: null, memory: null })).toHaveLength(1);
  });

  it('trims a repair\u2019s designer prompt the same way and keeps the reply and the validator\u2019s message whole', () => {
    const designer = designerLadder(INPUT, DEFAULT_TEMPLATES);
    const repair = repairLadder(designer, 'my reply', 'reset is missing', DEFAULT_TEMPLATES);
    for (const level of [0, 3, 5]) {
      const messages = repair(level)!;
      expect(messages.slice(0, -2)).toEqual(designer(level));
      expect(messages.at(-2)).toEqual({ role: 'assistant', content: 'my reply' });
      expect(messages.at(-1)!.content).toContain('reset is missing');
    }
    expect(repair(6)).toBeNull();
  });
});

function gameHistory(turns: number, lessons: string[] = []): AgentHistory {
  const messages: ChatMessage[] = [];
  for (let t = 1; t <= turns; t++)
    messages.push({ role: 'assistant', content: `reply ${t}` }, { role: 'user', content: `observation ${t}` });
  return {
    first: (withPlaybook) => agentFirstMessage('the start', DEFAULT_TEMPLATES.agent, withPlaybook ? lessons : []),
    hasPlaybook: lessons.length > 0,
    turns: messages,
    toolUse: false,
  };
}

describe('an agent request at each trim level', () => {
  it('leaves out the earliest turns one at a time, keeping the first message with a note and the latest turn, then drops the playbook', () => {
    const ladder = historyLadder(gameHistory(4, ['Count before you move.']));
    expect(ladder(0)!.map((m) => m.content.split('\n')[0])).toEqual([
      PLAYBOOK_HEADING,
      'reply 1',
      'observation 1',
      'reply 2',
      'observation 2',
      'reply 3',
      'observation 3',
      'reply 4',
      'observation 4',
    ]);
    expect(
      ladder(1)!
        .slice(1)
        .map((m) => m.content),
    ).toEqual(['reply 2', 'observation 2', 'reply 3', 'observation 3', 'reply 4', 'observation 4']);
    expect(ladder(1)![0]!.content).toMatch(
      /the start[\s\S]*\[Turn 1 is left out here to fit the model's context; the latest turns follow\.\]$/,
    );
    expect(
      ladder(3)!
        .slice(1)
        .map((m) => m.content),
    ).toEqual(['reply 4', 'observation 4']);
    expect(ladder(3)![0]!.content).toContain('[Turns 1-3 are left out');
    expect(ladder(3)![0]!.content.startsWith(PLAYBOOK_HEADING)).toBe(true);
    expect(ladder(4)![0]!.content.startsWith(PLAYBOOK_HEADING)).toBe(false);
    expect(ladder(4)![0]!.content).toContain('the start');
    expect(ladder(5)).toBeNull();
  });

  it('has only the whole first message on the first turn without a playbook', () => {
    const ladder = historyLadder(gameHistory(0));
    expect(ladder(0)).toEqual([agentFirstMessage('the start', DEFAULT_TEMPLATES.agent)]);
    expect(ladder(1)).toBeNull();
  });

  it('cuts older tool results first in a tool-use episode, never the latest one', () => {
    const long = 'r'.repeat(1000);
    const turns: ChatMessage[] = [
      { role: 'assistant', content: 'call 1' },
      { role: 'tool', content: long },
      { role: 'assistant', content: 'call 2' },
      { role: 'tool', content: long },
    ];
    const ladder = historyLadder({
      first: () => ({ role: 'user', content: 'task' }),
      hasPlaybook: false,
      turns,
      toolUse: true,
    });
    expect(ladder(1)!.map((m) => m.content.length)).toEqual([4, 6, TOOL_RESULT_CUTS[0] + ' …[cut]'.length, 6, 1000]);
    expect(ladder(2)![2]!.content).toHaveLength(TOOL_RESULT_CUTS[1] + ' …[cut]'.length);
    expect(
      ladder(3)!
        .slice(1)
        .map((m) => m.content.length),
    ).toEqual([6, 1000]);
    expect(ladder(4)).toBeNull();
  });
});
