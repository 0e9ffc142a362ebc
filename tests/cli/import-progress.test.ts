// The import's progress line (distinct codes done, rate, time left) and how `spade import` shows it:
// a line every two seconds on a terminal, only the closing summary otherwise.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { describe, expect, it } from 'vitest';
import { validationProgress } from '../../src/cli/import-command.ts';
import { formatDuration, importProgressLine } from '../../src/formats/import/import-progress.ts';

describe('the time-left formatter', () => {
  it('writes seconds, minutes and hours', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(44_600)).toBe('45 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(7_800_000)).toBe('2 h 10 min');
    expect(formatDuration(-5)).toBe('0 s');
  });

  it('estimates the time left from the rate so far', () => {
    expect(importProgressLine(0, 100, 0)).toBe(
      'validated 0 of 100 distinct environment codes, estimating the time left',
    );
    expect(importProgressLine(25, 100, 10_000)).toBe(
      'validated 25 of 100 distinct environment codes, 2.5/s, about 30 s left',
    );
    expect(importProgressLine(100, 7872, 4_000)).toBe(
      'validated 100 of 7872 distinct environment codes, 25/s, about 5 min 11 s left',
    );
    expect(importProgressLine(1, 1, 1_500)).toBe('validated 1 of 1 distinct environment code in 2 s');
  });
});

describe('spade import progress on standard error', () => {
  function clocked(terminal: boolean) {
    let t = 1_000;
    const lines: string[] = [];
    const progress = validationProgress(
      (line) => lines.push(line),
      terminal,
      () => t,
    );
    return { lines, progress, advance: (ms: number) => (t += ms) };
  }

  it('on a terminal, shows a line with the time left at most every two seconds, then a summary', () => {
    const { lines, progress, advance } = clocked(true);
    advance(1_000);
    progress.update(1, 10);
    advance(1_500);
    progress.update(2, 10);
    advance(1_000);
    progress.update(3, 10);
    advance(500);
    progress.update(10, 10);
    progress.finish(25);
    expect(lines).toEqual([
      'validated 2 of 10 distinct environment codes, 0.8/s, about 10 s left',
      'validated 10 of 10 distinct environment codes in 4 s for 25 entries (6.3 entries/s)',
    ]);
  });

  it('elsewhere, only the summary; nothing at all when nothing was validated', () => {
    const quiet = clocked(false);
    quiet.advance(5_000);
    quiet.progress.update(1, 2);
    quiet.advance(5_000);
    quiet.progress.update(2, 2);
    quiet.progress.finish(1);
    expect(quiet.lines).toEqual(['validated 2 of 2 distinct environment codes in 10 s for 1 entry (0.1 entries/s)']);
    const none = clocked(false);
    none.progress.finish(0);
    expect(none.lines).toEqual([]);
  });
});
