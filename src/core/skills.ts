/** What a run trains: SPADE's cognitive games or its multi-turn tool use. */
export type RunSetting = 'games' | 'tool_use';

/** The settings a run may use, the `setting` knob's values. */
export const RUN_SETTINGS: readonly RunSetting[] = ['games', 'tool_use'];

/** The six cognitive-game skills of SPADE, with the description the designer prompt shows. */
export const GAME_SKILLS: Readonly<Record<string, string>> = {
  'Mathematical Reasoning': 'arithmetic, number theory, algebra and counting carried out over several steps',
  'Logical Deduction': 'drawing certain conclusions from rules, clues and constraints',
  'Spatial Reasoning': 'positions, directions, shapes, grids and movement in space',
  'Pattern Recognition': 'finding the rule behind sequences, arrangements and transformations',
  Optimization: 'reaching the best outcome under limits on moves, cost or resources',
  'Causal Inference': 'telling causes from correlations by acting on a system and watching effects',
};

/** The six tool-use skills of SPADE, with the description the tool-use designer prompt shows. */
export const TOOL_USE_SKILLS: Readonly<Record<string, string>> = {
  'API Orchestration':
    'chaining several calls that change the state one after another, each using what the last one did',
  'Data Retrieval': 'finding the facts first with lookup tools, then acting exactly on what was found',
  'State Modification': 'a series of changes where each one depends on the state the earlier ones left',
  'Error Recovery': 'noticing a failed or refused call, checking the state, and retrying with corrected arguments',
  'Tool Selection': 'picking the right tool among similar ones from what the state currently says',
  'Multi-Step Workflows': 'ordered procedures whose later steps need the results of earlier ones',
};

/** The ten everyday domains a tool-use task is set in; one is drawn per slot. */
export const TOOL_USE_DOMAINS: readonly string[] = [
  'retail orders: orders, items, returns, refunds and shipping',
  'travel booking: flights and hotels to search, reserve, pay for and cancel',
  'telecom accounts: plans, phone lines, bills and data add-ons',
  'banking and payments: accounts, transfers, cards and invoices',
  'calendar and reminders: events, invitations and reminders',
  'a file system: files and folders to list, create, move, copy and search',
  'e-commerce checkout: a catalogue, a cart, coupons and checkout',
  'customer support: tickets, their status, assignees and notes',
  'a smart home: lights, thermostat, locks and scenes',
  'project tracking: tasks, assignees, status and due dates',
];

/** The skills of a setting, with their descriptions. */
export function skillsOf(setting: RunSetting): Readonly<Record<string, string>> {
  return setting === 'tool_use' ? TOOL_USE_SKILLS : GAME_SKILLS;
}

/** The description of any known skill (games or tool use), else the skill's own name. */
export function skillDescription(skill: string): string {
  if (Object.hasOwn(GAME_SKILLS, skill)) return GAME_SKILLS[skill]!;
  if (Object.hasOwn(TOOL_USE_SKILLS, skill)) return TOOL_USE_SKILLS[skill]!;
  return skill;
}

/**
 * The setting one environment belongs to: a tool-use skill or a domain makes it tool use, a game
 * skill a game; any other skill (an imported pool's own) takes the run's setting. A fixed pool may
 * mix both, and each environment's hint is asked in its own setting.
 */
export function environmentSetting(env: { skill: string; domain?: string | null }, runSetting: RunSetting): RunSetting {
  if ((env.domain ?? null) !== null || Object.hasOwn(TOOL_USE_SKILLS, env.skill)) return 'tool_use';
  if (Object.hasOwn(GAME_SKILLS, env.skill)) return 'games';
  return runSetting;
}
