import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withSetting } from '../../../src/core/config.ts';
import { activeSkills, planSlots } from '../../../src/core/loop/epoch.ts';
import { slotDomain, slotTaskVariant } from '../../../src/core/loop/design-slot.ts';
import {
  TOOL_SKILL_FOCUS,
  TOOL_TASK_VARIANTS,
  type ToolTaskVariant,
} from '../../../src/core/prompts/tool-task-variants.ts';
import { buildDesignerPrompt } from '../../../src/core/prompts/designer-prompt.ts';
import { buildHintPrompt } from '../../../src/core/prompts/hint-prompt.ts';
import { DEFAULT_TEMPLATES, templateProblems } from '../../../src/core/prompts/templates.ts';
import { TOOL_USE_DOMAINS, TOOL_USE_SKILLS } from '../../../src/core/skills.ts';

const INPUT = {
  skill: 'Error Recovery',
  skillDescription: TOOL_USE_SKILLS['Error Recovery']!,
  document: null,
  memory: null,
  difficulty: 'hard' as const,
  maxTurns: 12,
};

describe('the tool-use designer side', () => {
  it('has default templates that pass the template checks, and a tool-use template that must name its domain', () => {
    expect(templateProblems(DEFAULT_TEMPLATES)).toEqual([]);
    expect(
      templateProblems({
        ...DEFAULT_TEMPLATES,
        toolDesigner: DEFAULT_TEMPLATES.toolDesigner.replace('{domain}', 'retail'),
      }),
    ).toEqual(['prompts.toolDesigner must contain {domain}']);
    expect(templateProblems({ ...DEFAULT_TEMPLATES, toolAgent: 'Go: {observation}' })).toEqual([
      'prompts.toolAgent must contain {tools}',
    ]);
  });

  it('states every part of the multi-turn contract the reference prompt has', () => {
    const text = DEFAULT_TEMPLATES.toolDesigner;
    for (const part of [
      'subclasses ToolUseBaseEnv',
      'do not import it',
      'self._user_messages',
      'self._message_criteria',
      'self._current_msg = 0',
      '_advance_if_done(self) -> str: write this helper yourself',
      '_check_answer',
      'False at reset',
      'Same shape',
      'Derivable',
      'Reachable',
      'Matching',
      'Self-trace',
      '# TRACE:',
      'distractor tools',
      '"enum"',
      '"required"',
      'deterministic',
    ]) {
      expect(text, part).toContain(part);
    }
  });

  it('fills the slot: skill, domain and difficulty, the document only as optional flavour', () => {
    const [message] = buildDesignerPrompt(
      { ...INPUT, domain: TOOL_USE_DOMAINS[3]!, document: 'Tides rise twice a day.' },
      DEFAULT_TEMPLATES,
    );
    expect(message!.content).toContain('Target skill: Error Recovery: noticing a failed or refused call');
    expect(message!.content).toContain(`Domain: ${TOOL_USE_DOMAINS[3]}.`);
    // Only the slot's difficulty is described, not all three.
    expect(message!.content).toContain('Difficulty: hard: 4 or 5 instructions, 5 to 8 tools (2 or 3 distractors)');
    expect(message!.content).not.toMatch(/\beasy\b|\bmedium\b|3 or 4 instructions/);
    expect(message!.content).toContain('Optional flavour');
    expect(message!.content).toContain('Tides rise twice a day.');
    expect(message!.content).not.toMatch(/\{(skill|domain|difficulty|document_block|memory_block|max_turns)\}/);
    const games = buildDesignerPrompt(INPUT, DEFAULT_TEMPLATES)[0]!.content;
    expect(games).not.toContain('ToolUseBaseEnv');
  });

  it('draws a slot domain from the seed and the environment id: the same inputs the same domain, and all ten over many slots', () => {
    expect(slotDomain(7, 'e0000-s01')).toBe(slotDomain(7, 'e0000-s01'));
    const seen = new Set(Array.from({ length: 200 }, (_, i) => slotDomain(1, `e${i}`)));
    expect([...seen].sort()).toEqual([...TOOL_USE_DOMAINS].sort());
  });

  it("shows the slot's task variant and the skill's focus with its task ideas; the out-of-scope variant asks for decline_request", () => {
    const prompt = (taskVariant: ToolTaskVariant) =>
      buildDesignerPrompt({ ...INPUT, domain: TOOL_USE_DOMAINS[0]!, taskVariant }, DEFAULT_TEMPLATES)[0]!.content;
    for (const variant of Object.keys(TOOL_TASK_VARIANTS) as ToolTaskVariant[]) {
      const text = prompt(variant);
      expect(text).toContain(TOOL_TASK_VARIANTS[variant]);
      for (const other of Object.keys(TOOL_TASK_VARIANTS) as ToolTaskVariant[])
        if (other !== variant) expect(text).not.toContain(TOOL_TASK_VARIANTS[other]);
      expect(text).toContain(
        `Skill focus: ${TOOL_SKILL_FOCUS['Error Recovery']!.category}. Task ideas (pick one or invent your own): `,
      );
      for (const example of TOOL_SKILL_FOCUS['Error Recovery']!.examples) expect(text).toContain(example);
      expect(text).not.toMatch(/\{(skill_focus|task_variant)\}/);
    }
    expect(prompt('irrelevant')).toMatch(/decline_request with one required string parameter reason/);
    expect(Object.keys(TOOL_SKILL_FOCUS).sort()).toEqual(Object.keys(TOOL_USE_SKILLS).sort());
    // A skill without a focus (an imported pool's own) gets no focus line.
    expect(
      buildDesignerPrompt({ ...INPUT, skill: 'Juggling', domain: TOOL_USE_DOMAINS[0]! }, DEFAULT_TEMPLATES)[0]!.content,
    ).not.toContain('Skill focus');
  });

  it('draws a slot task variant from the seed and the environment id, three straightforward to two read-then-write to one each of the others', () => {
    expect(slotTaskVariant(7, 'e0000-s01')).toBe(slotTaskVariant(7, 'e0000-s01'));
    const counts = new Map<string, number>();
    for (let i = 0; i < 7000; i++)
      counts.set(slotTaskVariant(1, `e${i}`), (counts.get(slotTaskVariant(1, `e${i}`)) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['execute', 'irrelevant', 'miss_param', 'read_then_write']);
    expect(Math.abs(counts.get('execute')! - 3000)).toBeLessThan(200);
    expect(Math.abs(counts.get('read_then_write')! - 2000)).toBeLessThan(200);
    expect(Math.abs(counts.get('miss_param')! - 1000)).toBeLessThan(150);
    expect(Math.abs(counts.get('irrelevant')! - 1000)).toBeLessThan(150);
  });

  it('asks tool-use hints for a procedure without concrete values, and game hints as before', () => {
    const tool = buildHintPrompt('class XEnv(ToolUseBaseEnv): pass', DEFAULT_TEMPLATES, 'tool_use')[0]!.content;
    expect(tool).toContain(
      'Never write a concrete value from the data: no ids, names of people, places or items, file names, amounts, dates',
    );
    // It asks which tools to skip, so naming a tool is allowed.
    expect(tool).toContain('which tools to skip');
    expect(tool).toContain('Name tools by their tool name or by what they do');
    expect(tool).toContain('class XEnv(ToolUseBaseEnv): pass');
    expect(buildHintPrompt('x', DEFAULT_TEMPLATES)[0]!.content).toBe(DEFAULT_TEMPLATES.hint.replace('{code}', 'x'));
  });

  it('rotates the active skills over the tool-use skills in a tool-use run', () => {
    const config = { ...withSetting(DEFAULT_CONFIG, 'tool_use'), skillsPerEpoch: 3, slotsPerEpoch: 6 };
    expect(activeSkills(config, 0)).toEqual(['API Orchestration', 'Data Retrieval', 'State Modification']);
    expect(activeSkills(config, 1)).toEqual(['Error Recovery', 'Tool Selection', 'Multi-Step Workflows']);
    expect(new Set(planSlots(config, 1).map((s) => s.skill))).toEqual(new Set(activeSkills(config, 1)));
  });
});
