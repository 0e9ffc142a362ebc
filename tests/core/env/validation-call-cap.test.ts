// The per-call cap inside a run's validation follows the configured budget as `spade validate`'s does.
import { describe, expect, it } from 'vitest';
import { validationCallCap, validationForBudget } from '../../../src/core/env/validate-env.ts';
import { DEFAULT_CONFIG, REFERENCE_PRESET } from '../../../src/core/config.ts';
import { runsResetGate } from '../../../src/core/loop/design-slot.ts';

describe('validationCallCap', () => {
  it('keeps the tab 2 s and the reference preset 30 s, and grows with a larger budget instead of staying at the step limit', () => {
    expect(validationCallCap(DEFAULT_CONFIG.validateTimeoutMs, DEFAULT_CONFIG.stepTimeoutMs)).toBe(2000);
    expect(validationCallCap(REFERENCE_PRESET.validateTimeoutMs!, REFERENCE_PRESET.stepTimeoutMs!)).toBe(30_000);
    // `spade run --validate-timeout-ms 60000` with the tab's 2 s step limit: what `spade validate --timeout-ms 60000` allows.
    expect(validationCallCap(60_000, 2000)).toBe(24_000);
    expect(validationCallCap(60_000, 2000)).toBe(validationForBudget(60_000).callTimeoutMs);
  });

  it('never exceeds the budget itself', () => {
    expect(validationCallCap(1000, 2000)).toBe(1000);
    expect(validationCallCap(100, 30_000)).toBe(100);
  });
});

describe('runsResetGate', () => {
  it("runs the gate always with the tab's extra checks, and otherwise as the reference: tool-use runs from the second epoch on", () => {
    const tab = { ...DEFAULT_CONFIG, extraToolChecks: true };
    const reference = { ...DEFAULT_CONFIG, extraToolChecks: false };
    expect([runsResetGate(tab, 0), runsResetGate({ ...tab, setting: 'tool_use' }, 0)]).toEqual([true, true]);
    expect([runsResetGate(reference, 0), runsResetGate(reference, 3)]).toEqual([false, false]);
    expect([
      runsResetGate({ ...reference, setting: 'tool_use' }, 0),
      runsResetGate({ ...reference, setting: 'tool_use' }, 1),
    ]).toEqual([false, true]);
    expect(REFERENCE_PRESET.extraToolChecks).toBe(false);
  });
});
