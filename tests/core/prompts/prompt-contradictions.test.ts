// The designer and hint prompts say nothing that contradicts how environments are really run and
// scored, and show the designer only what it can act on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MemorySelection } from '../../../src/core/loop/memory.ts';
import {
  buildDesignerPrompt,
  TOOL_USE_DEFAULT_TURNS,
  type DesignerPromptInput,
} from '../../../src/core/prompts/designer-prompt.ts';
import { buildHintPrompt } from '../../../src/core/prompts/hint-prompt.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import { episodeReturn } from '../../../src/core/scoring/episode-return.ts';

const GAME: DesignerPromptInput = {
  skill: 'Spatial Reasoning',
  skillDescription: 'moving through space',
  document: null,
  memory: null,
  difficulty: 'medium',
  maxTurns: 12,
};
const TOOL: DesignerPromptInput = { ...GAME, skill: 'Error Recovery', domain: 'travel booking' };
const prompt = (input: DesignerPromptInput) => buildDesignerPrompt(input, DEFAULT_TEMPLATES)[0]!.content;

describe('prompts that match how environments are run and scored', () => {
  it('the games contract says only the last step reward counts, as the return does', () => {
    const text = prompt(GAME);
    expect(text).not.toContain('partial progress');
    expect(text).toContain("Only the last step's reward counts");
    expect(text).toContain('An episode that runs out of turns (truncated) scores 0');
    // What the prompt says is what scoring does: earlier rewards are ignored, a truncated episode scores 0.
    expect(
      episodeReturn([
        { reward: 0.5, terminated: false },
        { reward: 0, terminated: true },
      ]),
    ).toBe(0);
    expect(episodeReturn([{ reward: 0.5, terminated: false }])).toBe(0);
  });

  it('the tool-use designer is told the turns its episodes really have: the class cap, lowered to the run cap', () => {
    const python = readFileSync(new URL('../../../src/adapters/sandbox/tool_use_env.py', import.meta.url), 'utf8');
    expect(python).toContain(`def __init__(self, max_turns=${TOOL_USE_DEFAULT_TURNS}, **kwargs):`);
    expect(prompt({ ...TOOL, maxTurns: 12 })).toContain(`An episode stops after ${TOOL_USE_DEFAULT_TURNS} agent turns`);
    expect(prompt({ ...TOOL, maxTurns: 12 })).not.toContain('12 agent turns');
    expect(prompt({ ...TOOL, maxTurns: 6 })).toContain('An episode stops after 6 agent turns');
    expect(prompt({ ...GAME, maxTurns: 12 })).toContain('The game lasts at most 12 turns');
  });

  it('the tool hint asks which tools to skip and lets the hint name them', () => {
    const text = buildHintPrompt('class XEnv(ToolUseBaseEnv): pass', DEFAULT_TEMPLATES, 'tool_use')[0]!.content;
    expect(text).toContain('which tools to skip');
    expect(text).toContain('Name tools by their tool name or by what they do');
    expect(text).not.toMatch(/no ids, names, file names/);
  });

  it('the negative example is told by its skill, class name and docstring line, never by an id the designer never saw', () => {
    const code =
      'import random\n\nclass LanternMazeEnv:\n    """Walk a dark maze by lantern light."""\n    def reset(self, seed=None):\n        pass\n';
    const memory: MemorySelection = {
      positives: [],
      negative: {
        record: { envId: 'e0003-s01', skill: 'Spatial Reasoning', code, winRate: 0.97, regret: 0, epoch: 3 },
        reason: 'too easy',
      },
    };
    const text = prompt({ ...GAME, memory });
    expect(text).not.toContain('e0003-s01');
    expect(text).toContain(
      'Do not make another environment like the Spatial Reasoning game LanternMazeEnv ("Walk a dark maze by lantern light."): it was too easy (win rate 0.97).',
    );
  });

  it.each(['easy', 'medium', 'hard'] as const)('a %s tool-use slot is shown only its own difficulty', (difficulty) => {
    const text = prompt({ ...TOOL, difficulty });
    const rules = {
      easy: '3 instructions, about 4 tools',
      medium: '3 or 4 instructions, 4 to 6 tools',
      hard: '4 or 5 instructions, 5 to 8 tools',
    };
    expect(text).toContain(`Difficulty: ${difficulty}: ${rules[difficulty]}`);
    for (const [other, rule] of Object.entries(rules)) if (other !== difficulty) expect(text).not.toContain(rule);
  });
});
