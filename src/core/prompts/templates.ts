import { JUDGE, TOOL_AGENT, TOOL_DESIGNER, TOOL_HINT } from './tool-use-templates.ts';

/** The prompt templates of a run, as editable data; `{name}` marks a value filled in per call. */
export interface PromptTemplates {
  /** Designer prompt: the fixed contract first (a prefix cache reuses it across slots), then the slot's inputs, those most requests share first. */
  designer: string;
  /** Designer repair turn, sent after a failed design (`{error}` is the validator's message). */
  repair: string;
  /** Hint prompt: instructions first, the environment's code last. */
  hint: string;
  /** First user message of an agent episode (docs/method.md section 4). */
  agent: string;
  /** Tool-use designer prompt: the multi-turn contract, solvability and tool rules, then the slot's inputs (domain included). */
  toolDesigner: string;
  /** Tool-use hint prompt: a procedure without concrete values, the environment's code last. */
  toolHint: string;
  /** First user message of a tool-use episode: the protocol, the tool schemas, then the first instruction. */
  toolAgent: string;
  /** The optional same-model solvability judge of a tool-use environment (`\boxed{yes|no}`). */
  judge: string;
}

/** The placeholders each template must contain, and the only ones it may contain. */
export const TEMPLATE_PLACEHOLDERS: Readonly<Record<keyof PromptTemplates, readonly string[]>> = {
  designer: ['skill', 'skill_description', 'difficulty', 'min_steps', 'max_turns', 'document_block', 'memory_block'],
  repair: ['error'],
  hint: ['code'],
  agent: ['observation'],
  toolDesigner: [
    'skill',
    'skill_description',
    'skill_focus',
    'domain',
    'task_variant',
    'difficulty',
    'max_turns',
    'document_block',
    'memory_block',
  ],
  toolHint: ['code'],
  toolAgent: ['tools', 'observation'],
  judge: ['code'],
};

const DESIGNER =
  String.raw`You design executable training environments: text games that a reasoning agent plays over several turns, written in Python.

THE CONTRACT (an environment that breaks it is rejected before anyone plays it)
- Exactly one class whose name ends in "Env". It must be constructible as Cls() and as Cls(max_turns=N). Give every attribute a value in __init__, before reset() is ever called.
- reset(self, seed=None) returns (observation: str, info: dict). Draw all randomness from random.Random(seed), or from the module random, which is seeded for you before each reset, so the same seed always gives the same episode.
- step(self, action: str) returns (observation: str, reward: float, terminated: bool, truncated: bool, info: dict) on every path, including nonsense input. It never raises.
- Each turn the agent sends one action inside \boxed{...}. step() pulls out the first \boxed{...} itself (for example with re.search(r'\\boxed\{(.+?)\}', action)) and falls back to the raw text.
- Count turns in self.turn_count and set truncated=True once turn_count >= self.max_turns.
- solution(self) returns a short reference answer or winning strategy as a string. Never assign to self.solution.
- Python standard library only (no numpy). random, re, math, itertools, collections, deque, Counter and similar names are already defined for you.

WHAT MAKES A GOOD GAME
- Interactive: every action changes the state, and the observation after it shows the change.
- Hidden state that the agent uncovers by acting; reaching the goal takes at least as many actions as THIS ENVIRONMENT below asks for.
- Only the last step's reward counts: the episode scores the reward of the step that ends it with terminated=True, so give 1.0 there when the goal is reached and 0.0 when it is lost. An episode that runs out of turns (truncated) scores 0, and rewards of earlier steps are ignored: give them 0.0.
- Every observation lists the actions available now and reminds the agent to answer as \boxed{<action>}.
- Not a quiz: do not grade one boxed answer and stop, and do not loop "wrong, try again" on an unchanged task.
- The game lasts at most {max_turns} turns; pace it so a careful player can win in time.

SHAPE OF THE CODE
` +
  '```python' +
  String.raw`
import random, re

class SomethingEnv:
    def __init__(self, max_turns={max_turns}, **kwargs):
        self.max_turns = max_turns
        self.turn_count = 0
        # every other attribute gets a value here too

    def reset(self, seed=None):
        rng = random.Random(seed)
        self.turn_count = 0
        # build the hidden state from rng
        return "situation, available actions, reply with \\boxed{<action>}", {}

    def step(self, action):
        self.turn_count += 1
        match = re.search(r'\\boxed\{(.+?)\}', action)
        command = (match.group(1) if match else action).strip()
        # apply the command, then describe the new state
        terminated = False
        truncated = self.turn_count >= self.max_turns
        return "what changed, available actions, reply with \\boxed{<action>}", 0.0, terminated, truncated, {}

    def solution(self):
        return "the moves that win"
` +
  '```' +
  String.raw`

COMMON MISTAKES
- In an f-string a literal brace must be doubled: write \\boxed{{...}} to show \boxed{...}.
- Guard every division and every index; unknown commands get a helpful observation and reward 0.0.

CHECK YOUR WORK BEFORE YOU ANSWER
- Walk through reset(seed=0) followed by two different action sequences: the observations must differ, one sequence must be able to win, and every return must be the 5-tuple above.

THIS ENVIRONMENT
Difficulty: {difficulty}; the goal should take at least {min_steps} actions.
Target skill: {skill}: {skill_description}.
{memory_block}
{document_block}
Reply with the complete code in one fenced python block.`;

const REPAIR = `The environment failed validation:
{error}

Reply with the complete, fixed code in one fenced python block.`;

const HINT =
  `You are helping an agent that will play the text game below. Read the code and write a hint of one to three sentences, under 100 words: the key insight that wins the game, and how each action must be written. Do not give the exact answer, a hidden value or the full move sequence. Reply with the hint only.

The game:
` + '```python\n{code}\n```';

const AGENT =
  'You are playing a language game. Make valid actions to win.\nObservation: {observation}\nPlease reason step by step, and put your final answer within \\boxed{}.';

/** The templates a run uses unless the user edits them. */
export const DEFAULT_TEMPLATES: PromptTemplates = {
  designer: DESIGNER,
  repair: REPAIR,
  hint: HINT,
  agent: AGENT,
  toolDesigner: TOOL_DESIGNER,
  toolHint: TOOL_HINT,
  toolAgent: TOOL_AGENT,
  judge: JUDGE,
};

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The `{name}` placeholders a template uses (a doubled `{{` is not one). */
function placeholdersOf(template: string): string[] {
  return [...new Set([...template.replace(/\{\{|\}\}/g, '').matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** Lists what is wrong with a run's templates: a missing required placeholder or an unknown one. */
export function templateProblems(templates: PromptTemplates): string[] {
  const problems: string[] = [];
  for (const key of Object.keys(TEMPLATE_PLACEHOLDERS) as Array<keyof PromptTemplates>) {
    const text = templates[key];
    if (typeof text !== 'string') {
      problems.push(`prompts.${key} must be text`);
      continue;
    }
    const used = placeholdersOf(text);
    const allowed = TEMPLATE_PLACEHOLDERS[key];
    const missing = allowed.filter((name) => !used.includes(name) && !OPTIONAL_PLACEHOLDERS[key]?.has(name));
    const unknown = used.filter((name) => !allowed.includes(name));
    if (missing.length > 0) problems.push(`prompts.${key} must contain ${missing.map((m) => `{${m}}`).join(', ')}`);
    if (unknown.length > 0)
      problems.push(
        `prompts.${key} has unknown placeholders ${unknown.map((m) => `{${m}}`).join(', ')}; allowed: ${allowed.map((m) => `{${m}}`).join(', ')}`,
      );
  }
  return problems;
}

// Placeholders a template may leave out.
const OPTIONAL_PLACEHOLDERS: Partial<Record<keyof PromptTemplates, ReadonlySet<string>>> = {
  designer: new Set(['skill_description', 'min_steps', 'max_turns']),
  toolDesigner: new Set(['skill_description', 'max_turns', 'skill_focus', 'task_variant']),
};

/** Fills a template's `{name}` placeholders (values are inserted verbatim; `{{` and `}}` stay as they are). */
export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{\{|\}\}|\{([a-z_]+)\}/g, (whole, name: string | undefined) =>
    name !== undefined && Object.hasOwn(values, name) ? values[name]! : whole,
  );
}
