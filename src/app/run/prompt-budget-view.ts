import { BUDGET_ROLES, type PromptBudgetSummary, type RoleBudget } from '../../core/budget/budget-tally.ts';
import type { ChatPurpose } from '../../core/ports/chat-port.ts';
import type { EpochMetrics } from '../../core/records.ts';

/** How each role is named beside its prompt figures. */
const ROLE_NAMES: Readonly<Record<ChatPurpose, string>> = {
  designer: 'Designer',
  repair: 'Repair',
  judge: 'Solvability judge',
  hint: 'Hint',
  agent: 'Agent turn',
  lesson: 'Lesson',
};

/** One role's line of the prompt-size table. */
export interface BudgetRow {
  role: ChatPurpose;
  name: string;
  /** "largest prompt / window", e.g. `1,380 / 4,096`. */
  tokens: string;
  /** The largest prompt's share of the window, 0 to 1. */
  share: number;
  /** What the budget did: the smallest reply room it left and how many requests it trimmed. */
  detail: string;
}

const n = (value: number) => value.toLocaleString('en-US');

function rowOf(role: ChatPurpose, figures: RoleBudget): BudgetRow {
  const trimmed = figures.trimmed === 0 ? 'none trimmed' : `${n(figures.trimmed)} of ${n(figures.requests)} trimmed`;
  return {
    role,
    name: ROLE_NAMES[role],
    tokens: `${n(figures.maxPromptTokens)} / ${n(figures.window)}`,
    share: Math.min(1, figures.maxPromptTokens / figures.window),
    detail: `${n(figures.requests)} request${figures.requests === 1 ? '' : 's'}, at least ${n(figures.minMaxTokens)} tokens left for each reply, ${trimmed}`,
  };
}

/** The rows of a per-role summary in the roles' fixed order (largest prompt of the epoch over the window); empty when nothing was measured. */
export function budgetRows(summary: PromptBudgetSummary | null | undefined): BudgetRow[] {
  return BUDGET_ROLES.flatMap((role) => {
    const figures = summary?.[role];
    return figures ? [rowOf(role, figures)] : [];
  });
}

/** The latest committed epoch whose metrics hold prompt figures (the Learn view explains it), or null when the model never reported its window. */
export function latestBudget(epochs: readonly EpochMetrics[]): { epoch: number; summary: PromptBudgetSummary } | null {
  const found = [...epochs].reverse().find((m) => m.promptBudget && Object.keys(m.promptBudget).length > 0);
  return found?.promptBudget ? { epoch: found.epoch, summary: found.promptBudget } : null;
}
