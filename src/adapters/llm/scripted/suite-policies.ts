// Scripted players of the built-in evaluation suite (public/suites/builtin): one winning and one
// losing line per environment, for tests and the labelled scripted-learner demo. They read only
// the observation text, never an environment's hidden state, and are deterministic.
import { CAUSAL_POLICIES } from './suite-policies/causal.ts';
import { LOGIC_POLICIES } from './suite-policies/logic.ts';
import { MATH_POLICIES } from './suite-policies/math.ts';
import { OPTIMIZATION_POLICIES } from './suite-policies/optimization.ts';
import { PATTERN_POLICIES } from './suite-policies/pattern.ts';
import type { SuitePolicy } from './suite-policies/policy.ts';
import { SPATIAL_POLICIES } from './suite-policies/spatial.ts';

export type { Play, SuitePolicy } from './suite-policies/policy.ts';

/** Every suite environment's scripted player, skill by skill in the manifest's order. */
export const SUITE_POLICIES: readonly SuitePolicy[] = [
  ...MATH_POLICIES,
  ...LOGIC_POLICIES,
  ...SPATIAL_POLICIES,
  ...PATTERN_POLICIES,
  ...OPTIMIZATION_POLICIES,
  ...CAUSAL_POLICIES,
];

/** The player of the environment whose first observation starts with `[Title]`, or null when no suite title matches. */
export function policyForObservation(firstObservation: string): SuitePolicy | null {
  const title = /^\s*\[([^\]]+)\]/.exec(firstObservation)?.[1];
  return SUITE_POLICIES.find((policy) => policy.title === title) ?? null;
}
