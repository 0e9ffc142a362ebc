// What the tool-use designer prompt adds per slot beside the domain: the task variant (one drawn
// per slot, the common ones more often) and the skill's focus with a few task ideas, in this
// project's own words (docs/method.md section 6).

/** A kind of multi-turn task the designer is asked for. */
export type ToolTaskVariant = 'execute' | 'read_then_write' | 'miss_param' | 'irrelevant';

/** What each variant asks of the task, as the designer prompt says it. */
export const TOOL_TASK_VARIANTS: Readonly<Record<ToolTaskVariant, string>> = {
  execute:
    'Task variant: straightforward. Each instruction says what to do; the agent calls the right tools in order, and each criterion checks the state that results.',
  read_then_write:
    'Task variant: read then write. At least one instruction makes the agent look the data up first and then change only the records that meet a condition the instruction states (for example every order over $100); its criterion checks that exactly those records changed.',
  miss_param:
    'Task variant: missing value. At least one instruction leaves out a value its change needs ("cancel my latest order", with no order id); the agent must find it with a lookup tool, and the changing tool refuses a wrong or guessed value.',
  irrelevant:
    "Task variant: out of scope. Exactly one instruction asks for something no tool of this service can do (say, tomorrow's weather). Add a tool decline_request with one required string parameter reason, which records the refusal in the state; that instruction's criterion holds only once decline_request was called, and no other tool may seem to serve the request.",
};

/** The draw's weights: each variant as often as it appears here (straightforward 3, read then write 2, the other two 1 each). */
export const TOOL_TASK_ROTATION: readonly ToolTaskVariant[] = [
  'execute',
  'execute',
  'execute',
  'read_then_write',
  'read_then_write',
  'miss_param',
  'irrelevant',
];

/** What a tool-use skill centres on and a few tasks that exercise it (the designer may pick one or invent its own). */
export interface ToolSkillFocus {
  category: string;
  examples: readonly string[];
}

/** The focus of each tool-use skill (TOOL_USE_SKILLS). */
export const TOOL_SKILL_FOCUS: Readonly<Record<string, ToolSkillFocus>> = {
  'API Orchestration': {
    category: 'chained changes of state',
    examples: [
      'open a folder, make a subfolder, move files into it',
      'check a balance, send a transfer, confirm the new balance',
      'find stock, hold the items, confirm the hold, issue an invoice',
      'list flights, book a seat, add the traveller, confirm',
    ],
  },
  'Data Retrieval': {
    category: 'look up first, then act',
    examples: [
      'list a folder, open the right file, report a value from it',
      'find a customer, read their orders, name the latest',
      'read the current settings and change only the wrong ones',
      'filter records by a condition and report their total',
    ],
  },
  'State Modification': {
    category: 'changes that depend on earlier ones',
    examples: [
      'create an account, grant a role, add it to a team, check the team',
      'build a folder tree, then move and rename files',
      'bring a device online step by step, then run a command',
      'check prices, place orders, then verify the holdings',
    ],
  },
  'Error Recovery': {
    category: 'recovering from failed calls',
    examples: [
      'a move fails on a wrong path: search for the right one and retry',
      'an action is refused for lack of rights: obtain them and retry',
      'creating something that already exists is handled without harm',
      'check the state before a call that deletes or overwrites',
    ],
  },
  'Tool Selection': {
    category: 'choosing the right tool',
    examples: [
      'check where you are, then move or act in place',
      "read an item's type, then use the tool for that type",
      "read a file's format, then pick the matching converter",
      'check whether a record exists, then create or update it',
    ],
  },
  'Multi-Step Workflows': {
    category: 'ordered procedures',
    examples: [
      'list, open, create a folder, move, verify, report',
      'search, check stock, reserve, pay, confirm',
      'check status, configure, enable, test, log the result',
      'connect, query, filter, transform, save, validate',
    ],
  },
};

/** The skill-focus line of a tool-use designer prompt; empty for a skill without a focus (an imported pool's own). */
export function skillFocusLine(skill: string): string {
  const focus = Object.hasOwn(TOOL_SKILL_FOCUS, skill) ? TOOL_SKILL_FOCUS[skill]! : null;
  return focus
    ? `Skill focus: ${focus.category}. Task ideas (pick one or invent your own): ${focus.examples.join('; ')}.`
    : '';
}
