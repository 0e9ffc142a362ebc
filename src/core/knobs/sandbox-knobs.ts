import type { KnobRows } from './knob-spec.ts';

/** The sandbox's time limits for validating an environment and for one reset or step. */
export const SANDBOX_KNOBS = {
  validateTimeoutMs: {
    kind: 'number',
    group: 'sandbox',
    doc: 'Budget for validating one environment, in milliseconds.',
    default: 5000,
    reference: 60_000,
    min: 100,
    max: 60_000,
    integer: false,
    flag: 'validate-timeout-ms',
    flagValue: 'MS',
    label: 'Validation budget (ms)',
    help: 'Hard limit for validating one environment',
  },
  stepTimeoutMs: {
    kind: 'number',
    group: 'sandbox',
    doc: 'Limit for one reset or step, in milliseconds.',
    default: 2000,
    reference: 30_000,
    min: 50,
    max: 30_000,
    integer: false,
    flag: 'step-timeout-ms',
    flagValue: 'MS',
    label: 'Step limit (ms)',
    help: 'Hard limit for one reset or step; a hang is killed',
  },
} satisfies KnobRows;
