import type { ChatPurpose } from '../ports/chat-port.ts';
import type { RequestBudget } from './fit-request.ts';

/** One role's requests of an epoch against the model's context size. */
export interface RoleBudget {
  /** Requests measured. */
  requests: number;
  /** Requests sent with some of their prompt trimmed. */
  trimmed: number;
  /** The largest prompt of the role, in tokens. */
  maxPromptTokens: number;
  /** The smallest `max_tokens` sent. */
  minMaxTokens: number;
  /** The model's context size in tokens (prompt plus reply). */
  window: number;
}

/** Per-role prompt figures of an epoch, in BUDGET_ROLES order; roles without a measured request are absent. */
export type PromptBudgetSummary = Partial<Record<ChatPurpose, RoleBudget>>;

/** The roles in the order their figures are kept and shown. */
export const BUDGET_ROLES: readonly ChatPurpose[] = ['designer', 'repair', 'judge', 'hint', 'agent', 'lesson'];

/** Adds one fitted request to a role's figures (returns new figures). */
export function addToRoleBudget(role: RoleBudget | undefined, budget: RequestBudget): RoleBudget {
  return {
    requests: (role?.requests ?? 0) + 1,
    trimmed: (role?.trimmed ?? 0) + (budget.trimLevel > 0 ? 1 : 0),
    maxPromptTokens: Math.max(role?.maxPromptTokens ?? 0, budget.promptTokens),
    minMaxTokens: Math.min(role?.minMaxTokens ?? Number.POSITIVE_INFINITY, budget.maxTokens),
    window: Math.max(role?.window ?? 0, budget.window),
  };
}

/** Per-role figures collected while an epoch runs; the summary does not depend on the order requests were fitted in. */
export class BudgetTally {
  private readonly roles = new Map<ChatPurpose, RoleBudget>();

  /** Counts one fitted request. */
  add(purpose: ChatPurpose, budget: RequestBudget): void {
    this.roles.set(purpose, addToRoleBudget(this.roles.get(purpose), budget));
  }

  /** The figures per role, in BUDGET_ROLES order; null when nothing was measured (the model does not report its context size). */
  summary(): PromptBudgetSummary | null {
    if (this.roles.size === 0) return null;
    const summary: PromptBudgetSummary = {};
    for (const role of BUDGET_ROLES) {
      const figures = this.roles.get(role);
      if (figures) summary[role] = figures;
    }
    return summary;
  }
}
