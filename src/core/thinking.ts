/** The model roles with a thinking setting of their own; the repair and the solvability judge follow the designer's. */
export type ThinkingRole = 'designer' | 'hint' | 'agent' | 'lesson';

/** A role's thinking switch: ask for thinking, turn it off, or leave the model's own default (Qwen3 thinks by default). */
export type ThinkingMode = 'on' | 'off' | 'default';

/** The roles, in the order the form and the flags list them. */
export const THINKING_ROLES: readonly ThinkingRole[] = ['designer', 'hint', 'agent', 'lesson'];

/** The switch's values. */
export const THINKING_MODES: readonly ThinkingMode[] = ['on', 'off', 'default'];

/** Most thinking tokens a role may be given on top of its reply budget. */
export const MAX_THINKING_BUDGET = 32_768;

/** One role's thinking as a call uses it: the switch and the thinking budget in tokens (0: thinking shares the reply budget). */
export interface RoleThinking {
  mode: ThinkingMode;
  budget: number;
}

/** How runs stored before the thinking settings ran: nothing sent, no tokens added (docs/method.md section 5). */
export const UNSET_THINKING: Readonly<Record<ThinkingRole, ThinkingMode>> = {
  designer: 'default',
  hint: 'default',
  agent: 'default',
  lesson: 'default',
};

/** The thinking budgets of runs stored before the thinking settings: none. */
export const UNSET_THINKING_BUDGET: Readonly<Record<ThinkingRole, number>> = {
  designer: 0,
  hint: 0,
  agent: 0,
  lesson: 0,
};

/** A run's thinking settings: each role's switch, and its thinking budget in tokens. */
export interface ThinkingSettings {
  thinking: Record<ThinkingRole, ThinkingMode>;
  thinkingBudget: Record<ThinkingRole, number>;
}

/** A role's thinking from a run's config. */
export function roleThinking(config: ThinkingSettings, role: ThinkingRole): RoleThinking {
  return { mode: config.thinking[role], budget: config.thinkingBudget[role] };
}

/** What is wrong with a config's thinking settings (empty when they are usable). */
export function thinkingProblems(config: ThinkingSettings): string[] {
  const { thinking, thinkingBudget } = config;
  if (typeof thinking !== 'object' || thinking === null)
    return [`thinking must give each of ${THINKING_ROLES.join(', ')} one of ${THINKING_MODES.join(', ')}`];
  if (typeof thinkingBudget !== 'object' || thinkingBudget === null)
    return [`thinkingBudget must give each of ${THINKING_ROLES.join(', ')} a number of tokens`];
  const problems: string[] = [];
  for (const role of THINKING_ROLES) {
    if (!THINKING_MODES.includes(thinking[role]))
      problems.push(
        `thinking.${role} must be one of ${THINKING_MODES.join(', ')}, got ${JSON.stringify(thinking[role]) ?? 'nothing'}`,
      );
    const budget = thinkingBudget[role];
    if (!(Number.isInteger(budget) && budget >= 0 && budget <= MAX_THINKING_BUDGET))
      problems.push(
        `thinkingBudget.${role} must be an integer from 0 to ${MAX_THINKING_BUDGET}, got ${JSON.stringify(budget) ?? 'nothing'}`,
      );
  }
  return problems;
}
