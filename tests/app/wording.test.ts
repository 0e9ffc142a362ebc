import { describe, expect, it } from 'vitest';
import {
  asSentence,
  count,
  counted,
  designerTally,
  designGroup,
  lineList,
  savedEpochs,
} from '../../src/app/shell/wording.ts';

describe('wording of counts', () => {
  it('counts with the noun, zero as "no"', () => {
    expect([counted(0, 'slot'), counted(1, 'slot'), counted(2, 'slot'), counted(2, 'child', 'children')]).toEqual([
      'no slot',
      '1 slot',
      '2 slots',
      '2 children',
    ]);
  });

  it('counts with digits where "no" would read wrong, and names one line or several', () => {
    expect([count(0, 'slot'), count(1, 'slot'), count(2, 'mismatch', 'mismatches')]).toEqual([
      '0 slots',
      '1 slot',
      '2 mismatches',
    ]);
    expect([lineList([3]), lineList([3, 5])]).toEqual(['line 3', 'lines 3, 5']);
  });

  it("names the designer advantage's group with its size, or says the record has none", () => {
    expect([designGroup(1, 'spatial'), designGroup(3, 'spatial')]).toEqual([
      'a group of 1 design of spatial',
      'a group of 3 designs of spatial',
    ]);
    expect(designGroup(undefined, 'spatial')).toBe('a group of designs of spatial whose size this run did not record');
  });

  it('never says "Epochs 1 to 0 are saved"', () => {
    expect([savedEpochs(0), savedEpochs(1), savedEpochs(3)]).toEqual([
      'No epoch is saved',
      'Epoch 1 is saved',
      'Epochs 1 to 3 are saved',
    ]);
  });

  it('never says "0 slots were rejected", nor "no slot was rejected" after a rejected attempt', () => {
    expect(designerTally(0, 0, 0)).toBe('wrote no environment');
    const checks = "the sandbox's checks (load, probe, determinism)";
    expect(designerTally(4, 0, 0)).toBe(
      `wrote 4 environments as Python programs, and all 4 passed ${checks} at the first attempt; no attempt was rejected`,
    );
    expect(designerTally(1, 0, 0)).toBe(
      `wrote 1 environment as a Python program, and it passed ${checks} at the first attempt; no attempt was rejected`,
    );
    expect(designerTally(2, 0, 1)).toBe(
      `wrote 2 environments as Python programs: 1 of its 3 attempts was rejected by ${checks}, each with the exact reason, and tried again; every slot ended with a valid environment`,
    );
    expect(designerTally(3, 1, 4)).toBe(
      `wrote 4 environments as Python programs, of which 3 passed ${checks} and 1 slot was rejected after all attempts, with the exact reason (4 attempts rejected in all)`,
    );
    expect(designerTally(0, 2, 6)).toBe(
      `wrote 2 environments as Python programs, of which none passed ${checks} and 2 slots were rejected after all attempts, each with the exact reason (6 attempts rejected in all)`,
    );
  });
});

describe('asSentence', () => {
  it('ends a message with one full stop, never two (the import error once read "first.. Nothing")', () => {
    expect(asSentence('pick another id or delete that run first.')).toBe('pick another id or delete that run first.');
    expect(asSentence('the sandbox stopped ')).toBe('the sandbox stopped.');
    expect(asSentence('Really?')).toBe('Really?');
  });
});
