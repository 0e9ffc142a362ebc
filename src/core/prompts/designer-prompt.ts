import type { ChatMessage } from '../ports/chat-port.ts';
import type { MemorySelection } from '../loop/memory.ts';
import { fillTemplate, type PromptTemplates } from './templates.ts';
import { skillFocusLine, TOOL_TASK_VARIANTS, type ToolTaskVariant } from './tool-task-variants.ts';

/** Everything one designer prompt is built from. */
export interface DesignerPromptInput {
  skill: string;
  skillDescription: string;
  /** Grounding document, already truncated; null when the corpus is switched off. */
  document: string | null;
  memory: MemorySelection | null;
  difficulty: 'easy' | 'medium' | 'hard';
  /** The run's turn cap, shown in the interface skeleton. */
  maxTurns: number;
  /** A tool-use slot's everyday domain; absent for a cognitive game. */
  domain?: string;
  /** A tool-use slot's task variant (drawn per slot); absent for a cognitive game. */
  taskVariant?: ToolTaskVariant;
  /** The reference's tool-use turns (`freeToolCalls`): calls cost no step, so the run's cap on replies is the episode's length. */
  freeToolCalls?: boolean;
}

/** Interaction steps the goal should need at each difficulty (SPADE: 2 when easy, else 3). */
function minimumSteps(difficulty: DesignerPromptInput['difficulty']): number {
  return difficulty === 'easy' ? 2 : 3;
}

function documentBlock(document: string | null): string {
  if (document === null) return 'Choose any concept that exercises the target skill.';
  return `Build the game around one concept from the text below; the game text must stand on its own, without mentioning its source.\n<document>\n${document}\n</document>`;
}

// An environment class line, and what follows it.
const ENV_CLASS = /^class\s+([A-Za-z_]\w*Env)\b[^\n]*\n?([\s\S]{0,400})/m;
// A docstring opening the class body: its first line.
const DOC_LINE = /^[ \t]*[rRuU]?(?:"""|''')[ \t]*([^\n]*)/;

/** A past environment as the designer can recognise it (it never saw its id): its skill, its class name and the first line of the class's docstring. */
export function describeEnvironment(code: string, skill: string): string {
  const match = ENV_CLASS.exec(code);
  const line = DOC_LINE.exec(match?.[2] ?? '')?.[1]
    ?.replace(/("""|''').*$/, '')
    .trim()
    .slice(0, 120);
  return `the ${skill} game${match ? ` ${match[1]}` : ''}${line ? ` ("${line}")` : ''}`;
}

/** The reference-environments block: positives with skill, win rate, regret and code (a note instead when the budget left the code out); the negative by its skill, class name and one line of what it was. */
export function memoryBlock(memory: MemorySelection | null): string {
  if (!memory || (memory.positives.length === 0 && !memory.negative)) return '';
  const parts: string[] = [];
  if (memory.positives.length > 0) {
    parts.push(
      '<reference_environments>\nThese past environments were well calibrated: the agent won some plays, and the hint helped. Borrow their structure and depth, but write a DIFFERENT game.',
    );
    memory.positives.forEach((p, i) => {
      const heading = `Reference ${i + 1} (skill: ${p.skill}, win rate ${p.winRate.toFixed(2)}, regret ${p.regret.toFixed(2)})`;
      parts.push(
        p.code === ''
          ? `${heading}; its code is left out to fit the model's context.`
          : `${heading}:\n\`\`\`python\n${p.code}\n\`\`\``,
      );
    });
    parts.push('</reference_environments>');
  }
  if (memory.negative) {
    const n = memory.negative;
    parts.push(
      `Do not make another environment like ${describeEnvironment(n.record.code, n.record.skill)}: it was ${n.reason} (win rate ${n.record.winRate.toFixed(2)}).`,
    );
  }
  return parts.join('\n\n');
}

/** `max_turns` of ToolUseBaseEnv's constructor (tool_use_env.py): a tool-use class built with its own defaults stops there. */
export const TOOL_USE_DEFAULT_TURNS = 10;

/** Agent turns a tool-use episode really has: the class's own cap (ToolUseBaseEnv's default) lowered to the run's cap, or with free tool calls the run's cap on replies. */
export function toolUseTurns(runCap: number, freeToolCalls = false): number {
  return freeToolCalls ? runCap : Math.min(TOOL_USE_DEFAULT_TURNS, runCap);
}

// What each difficulty asks of a tool-use task; the prompt shows only the slot's.
const TOOL_DIFFICULTY: Record<DesignerPromptInput['difficulty'], string> = {
  easy: '3 instructions, about 4 tools (1 distractor), each instruction done with one or two calls',
  medium: '3 or 4 instructions, 4 to 6 tools (1 or 2 distractors), results carried from one call into the next',
  hard: '4 or 5 instructions, 5 to 8 tools (2 or 3 distractors), ordering matters and one lookup returns only part of the data at a time',
};

function flavourBlock(document: string | null): string {
  if (document === null) return '';
  return `Optional flavour: you may borrow names, numbers or entities from the text below, but the domain above stays fixed; do not make the task about the text and never mention it.\n<document>\n${document}\n</document>`;
}

/** The tool-use designer messages: the tool-use template, the slot's domain, task variant and skill focus, and the document only as optional flavour. */
function buildToolDesignerPrompt(
  input: DesignerPromptInput & { domain: string },
  templates: PromptTemplates,
): ChatMessage[] {
  const content = fillTemplate(templates.toolDesigner, {
    skill: input.skill,
    skill_description: input.skillDescription,
    domain: input.domain,
    skill_focus: skillFocusLine(input.skill),
    task_variant: TOOL_TASK_VARIANTS[input.taskVariant ?? 'execute'],
    difficulty: `${input.difficulty}: ${TOOL_DIFFICULTY[input.difficulty]}`,
    max_turns: String(toolUseTurns(input.maxTurns, input.freeToolCalls)),
    document_block: flavourBlock(input.document),
    memory_block: memoryBlock(input.memory),
  });
  return [{ role: 'user', content: content.replace(/\n{3,}/g, '\n\n') }];
}

/** Builds the designer messages for one slot (docs/method.md section 4): the games template, or the tool-use one when the slot has a domain. */
export function buildDesignerPrompt(input: DesignerPromptInput, templates: PromptTemplates): ChatMessage[] {
  if (input.domain !== undefined) return buildToolDesignerPrompt({ ...input, domain: input.domain }, templates);
  const content = fillTemplate(templates.designer, {
    skill: input.skill,
    skill_description: input.skillDescription,
    difficulty: input.difficulty,
    min_steps: String(minimumSteps(input.difficulty)),
    max_turns: String(input.maxTurns),
    document_block: documentBlock(input.document),
    memory_block: memoryBlock(input.memory),
  });
  return [{ role: 'user', content: content.replace(/\n{3,}/g, '\n\n') }];
}

/** Builds the one-shot repair messages: the previous attempt and the validator's message. */
export function buildRepairPrompt(
  previous: ChatMessage[],
  reply: string,
  validatorMessage: string,
  templates: PromptTemplates,
): ChatMessage[] {
  return [
    ...previous,
    { role: 'assistant', content: reply },
    { role: 'user', content: fillTemplate(templates.repair, { error: validatorMessage }) },
  ];
}
