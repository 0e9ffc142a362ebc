// Prompts a prefix cache can use: the text that is the same for every request of a role comes
// first, the parts that vary (slot, environment, skill) last; and every part the designer prompt
// must carry is still there.
import { describe, expect, it } from 'vitest';
import { completeConfig, DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import { planSlots } from '../../../src/core/loop/epoch.ts';
import type { MemoryRecord, MemorySelection } from '../../../src/core/loop/memory.ts';
import {
  buildDesignerPrompt,
  toolUseTurns,
  type DesignerPromptInput,
} from '../../../src/core/prompts/designer-prompt.ts';
import { buildHintPrompt } from '../../../src/core/prompts/hint-prompt.ts';
import { buildLessonPrompt, LESSON_INSTRUCTIONS } from '../../../src/core/prompts/lesson-prompt.ts';
import { toolAgentFirstMessage } from '../../../src/core/prompts/agent-prompt.ts';
import {
  DEFAULT_TEMPLATES,
  fillTemplate,
  templateProblems,
  type PromptTemplates,
} from '../../../src/core/prompts/templates.ts';
import { skillDescription, TOOL_USE_DOMAINS } from '../../../src/core/skills.ts';
import type { RunSetting } from '../../../src/core/skills.ts';
import { commonPrefixLength } from '../../bench/shared-prefix.ts';

// Placeholders whose value changes from one request of the role to the next within a run.
const VARYING = [
  'skill',
  'skill_description',
  'difficulty',
  'min_steps',
  'domain',
  'document_block',
  'memory_block',
  'code',
  'tools',
  'observation',
];

/** The template up to its first varying placeholder, with the run-level ones (the turn cap) filled in. */
function fixedHead(template: string, maxTurns: number): string {
  const cut = Math.min(...VARYING.map((name) => template.indexOf(`{${name}}`)).filter((i) => i >= 0));
  return fillTemplate(template.slice(0, cut), { max_turns: String(maxTurns) });
}

const record = (envId: string, skill: string, winRate: number): MemoryRecord => ({
  envId,
  skill,
  code: `class Past${envId.replace(/\W/g, '')}Env: pass`,
  winRate,
  regret: 0.3,
  epoch: 0,
});

// Two slots of one epoch that differ in everything a slot can differ in.
function twoSlots(config: Config): [DesignerPromptInput, DesignerPromptInput] {
  const [a, b] = planSlots(config, 0);
  expect(a!.skill).not.toBe(b!.skill);
  const memory: MemorySelection = {
    positives: [record('e0000-s00', a!.skill, 0.5)],
    negative: { record: record('e0000-s01', a!.skill, 0.95), reason: 'too easy' },
  };
  const domains =
    config.setting === 'tool_use'
      ? ([{ domain: TOOL_USE_DOMAINS[0]! }, { domain: TOOL_USE_DOMAINS[5]! }] as const)
      : ([{}, {}] as const);
  return [
    {
      skill: a!.skill,
      skillDescription: skillDescription(a!.skill),
      document: 'Tides rise twice a day.',
      memory,
      difficulty: 'easy',
      maxTurns: config.maxTurns,
      ...domains[0],
    },
    {
      skill: b!.skill,
      skillDescription: skillDescription(b!.skill),
      document: null,
      memory: null,
      difficulty: 'hard',
      maxTurns: config.maxTurns,
      ...domains[1],
    },
  ];
}

const SETTINGS: Array<{
  setting: RunSetting;
  designer: keyof PromptTemplates;
  hint: keyof PromptTemplates;
  contract: string[];
}> = [
  {
    setting: 'games',
    designer: 'designer',
    hint: 'hint',
    contract: [
      'THE CONTRACT',
      'WHAT MAKES A GOOD GAME',
      'SHAPE OF THE CODE',
      'COMMON MISTAKES',
      'CHECK YOUR WORK',
      'THIS ENVIRONMENT',
    ],
  },
  {
    setting: 'tool_use',
    designer: 'toolDesigner',
    hint: 'toolHint',
    contract: [
      'WHAT THE AGENT DOES',
      'WHAT YOU WRITE',
      'THE INSTRUCTIONS',
      'SOLVABILITY',
      'THE TOOLS',
      'SHAPE OF THE CODE',
      'THIS ENVIRONMENT',
      'Build the service',
    ],
  },
];

describe.each(SETTINGS)('prefix order, $setting setting', ({ setting, designer, hint, contract }) => {
  const config = { ...withSetting(DEFAULT_CONFIG, setting), skillsPerEpoch: 2 };
  // The turns the designer is told of: a tool-use class stops at its own cap (ToolUseBaseEnv's default) when that is lower.
  const turns = setting === 'tool_use' ? toolUseTurns(config.maxTurns) : config.maxTurns;

  it('the designer prompts of two slots of one epoch share the whole fixed contract as their prefix', () => {
    const head = fixedHead(DEFAULT_TEMPLATES[designer], turns);
    for (const section of contract) expect(head, section).toContain(section);
    const [a, b] = twoSlots(config).map((input) => buildDesignerPrompt(input, DEFAULT_TEMPLATES)) as [
      ReturnType<typeof buildDesignerPrompt>,
      ReturnType<typeof buildDesignerPrompt>,
    ];
    expect(a).toHaveLength(1);
    expect(b).toHaveLength(1);
    expect(a[0]!.content.startsWith(head)).toBe(true);
    expect(b[0]!.content.startsWith(head)).toBe(true);
    const shared = commonPrefixLength(a[0]!.content, b[0]!.content);
    expect(shared).toBeGreaterThanOrEqual(head.length);
    // What follows the shared prefix is the slot's own: the two prompts are not the same.
    expect(shared).toBeLessThan(Math.min(a[0]!.content.length, b[0]!.content.length));
  });

  it('the slot inputs come in order of how many requests share them: difficulty, skill, domain, memory, document', () => {
    const [input] = twoSlots(config);
    const text = buildDesignerPrompt(input, DEFAULT_TEMPLATES)[0]!.content;
    const at = (part: string) => {
      expect(text, part).toContain(part);
      return text.indexOf(part);
    };
    const order = [
      `Difficulty: easy`,
      `Target skill: ${input.skill}:`,
      ...(input.domain ? [`Domain: ${input.domain}.`] : []),
      'win rate 0.50',
      'Tides rise twice a day.',
      'Reply with the complete code in one fenced python block.',
    ];
    const positions = order.map(at);
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    // The first thing after the fixed head is the difficulty word.
    expect(text.slice(fixedHead(DEFAULT_TEMPLATES[designer], turns).length)).toMatch(/^easy\b/);
  });

  it('the hint prompts of two environments share every instruction; only the code comes after', () => {
    const head = fixedHead(DEFAULT_TEMPLATES[hint], config.maxTurns);
    expect(head).toContain('Reply with the hint only.');
    const [a, b] = ['class AlphaEnv: pass', 'class BetaEnv: pass'].map(
      (code) => buildHintPrompt(code, DEFAULT_TEMPLATES, setting)[0]!.content,
    ) as [string, string];
    expect(commonPrefixLength(a, b)).toBeGreaterThanOrEqual(head.length);
    expect(a.startsWith(head) && b.startsWith(head)).toBe(true);
    const tail = a.slice(head.length);
    expect(tail.replace('class AlphaEnv: pass', '').trim()).toMatch(/^`*(python)?\s*`*$/);
  });
});

describe('prefix order, the other roles', () => {
  it('lesson requests of two skills share all their instructions; the skill, observation and hint come after', () => {
    const [a, b] = (['Optimization', 'Causal Inference'] as const).map(
      (skill) =>
        buildLessonPrompt({
          skill,
          skillDescription: skillDescription(skill),
          observation: `A ${skill} game.`,
          hint: 'Look first.',
        })[0]!.content,
    ) as [string, string];
    expect(LESSON_INSTRUCTIONS).toContain('LESSON:');
    expect(LESSON_INSTRUCTIONS).not.toMatch(/Optimization|Causal/);
    expect(commonPrefixLength(a, b)).toBeGreaterThanOrEqual(LESSON_INSTRUCTIONS.length);
    expect(a).toContain('the skill "Optimization"');
    expect(a.indexOf('the skill "Optimization"')).toBeGreaterThan(LESSON_INSTRUCTIONS.length);
  });

  it('tool-use first messages of two environments share the protocol; the tools and the instruction come after', () => {
    const tool = (name: string) => ({
      type: 'function' as const,
      function: { name, description: name, parameters: {} },
    });
    const a = toolAgentFirstMessage('Book a table.', [tool('book')], DEFAULT_TEMPLATES.toolAgent).content;
    const b = toolAgentFirstMessage(
      'Cancel my order.',
      [tool('cancel'), tool('lookup')],
      DEFAULT_TEMPLATES.toolAgent,
    ).content;
    const head = fixedHead(DEFAULT_TEMPLATES.toolAgent, 12);
    expect(head).toContain('<tool_call>');
    expect(head).toContain('<answer>');
    expect(commonPrefixLength(a, b)).toBeGreaterThanOrEqual(head.length);
  });

  it('a template stored by an earlier version, with its varying parts first, still checks and builds in its own order', () => {
    const stored = {
      ...DEFAULT_CONFIG,
      prompts: {
        designer:
          'Document: {document_block}\nMemory: {memory_block}\nSkill {skill}, {difficulty}, at least {min_steps} steps, {max_turns} turns. Write the code.',
        hint: '{code}\nWrite a hint.',
      },
    } as unknown as Config;
    const config = completeConfig(stored);
    expect(templateProblems(config.prompts)).toEqual([]);
    expect(config.prompts.toolAgent).toBe(DEFAULT_TEMPLATES.toolAgent);
    const [input] = twoSlots({ ...config, skillsPerEpoch: 2 });
    const text = buildDesignerPrompt(input, config.prompts)[0]!.content;
    expect(text.startsWith('Document: Build the game around one concept')).toBe(true);
    expect(text).toContain(`Skill ${input.skill}, easy, at least 2 steps, ${config.maxTurns} turns. Write the code.`);
    expect(buildHintPrompt('class AEnv: pass', config.prompts)[0]!.content).toBe('class AEnv: pass\nWrite a hint.');
  });
});

describe('the games designer prompt still carries every part', () => {
  it('the interface skeleton, the self-check, the reference environments with skill, win rate and regret, the negative by skill and class name, the difficulty line', () => {
    const [input] = twoSlots({ ...DEFAULT_CONFIG, skillsPerEpoch: 2 });
    const text = buildDesignerPrompt(input, DEFAULT_TEMPLATES)[0]!.content;
    for (const part of [
      'def __init__(self, max_turns=',
      'def reset(self, seed=None)',
      'def step(self, action)',
      'def solution(self)',
      'CHECK YOUR WORK BEFORE YOU ANSWER',
      '<reference_environments>',
      `(skill: ${input.skill}, win rate 0.50, regret 0.30)`,
      `Do not make another environment like the ${input.skill} game Paste0000s01Env: it was too easy (win rate 0.95).`,
      'Difficulty: easy; the goal should take at least 2 actions.',
      'Tides rise twice a day.',
    ]) {
      expect(text, part).toContain(part);
    }
    expect(text).not.toMatch(
      /\{(skill|skill_description|difficulty|min_steps|max_turns|document_block|memory_block)\}/,
    );
  });
});
