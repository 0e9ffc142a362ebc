import { describe, expect, it } from 'vitest';
import {
  runStatus,
  statusText,
  type HeldElsewhere,
  type HeldHere,
  type RunStatusView,
} from '../../src/app/run/run-status.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';

type Stored = Pick<RunMeta, 'id' | 'status' | 'epochsCompleted' | 'epochsPlanned'>;
const stored = (status: RunMeta['status'], epochsCompleted = 1, epochsPlanned = 3): Stored => ({
  id: 'r',
  status,
  epochsCompleted,
  epochsPlanned,
});
const here = (status: HeldHere['status'], runId = 'r'): HeldHere => ({ runId, status });
const NOBODY: HeldElsewhere = {};

describe('runStatus: one status for a run, whichever view shows it', () => {
  // [what, stored meta, held here, held elsewhere, expected]
  const cases: Array<[string, Stored, HeldHere | null, HeldElsewhere, RunStatusView]> = [
    ['a new run', stored('new', 0), null, NOBODY, { word: 'new', where: null }],
    ['running in this tab', stored('running'), here('running'), NOBODY, { word: 'running', where: 'this tab' }],
    [
      'paused in this tab (the store still says running)',
      stored('running'),
      here('paused'),
      NOBODY,
      { word: 'paused', where: 'this tab' },
    ],
    [
      'stopping after an abort in this tab',
      stored('running'),
      here('stopping'),
      NOBODY,
      { word: 'stopping', where: 'this tab' },
    ],
    [
      'this tab starting a run the store still calls new',
      stored('new', 0),
      here('running'),
      NOBODY,
      { word: 'running', where: 'this tab' },
    ],
    [
      'this tab holding another run says nothing of this one',
      stored('aborted'),
      here('running', 'other'),
      NOBODY,
      { word: 'aborted', where: null },
    ],
    [
      'running in another tab, as it announced',
      stored('running'),
      null,
      { r: { status: 'running' } },
      { word: 'running', where: 'another tab' },
    ],
    [
      'paused in another tab, as it announced',
      stored('running'),
      null,
      { r: { status: 'paused' } },
      { word: 'paused', where: 'another tab' },
    ],
    [
      'held by another tab that has not spoken yet: running, never interrupted',
      stored('running'),
      null,
      { r: null },
      { word: 'running', where: 'another tab' },
    ],
    [
      'another tab starting a new run, before its first write',
      stored('new', 0),
      null,
      { r: null },
      { word: 'running', where: 'another tab' },
    ],
    [
      'a completed run another tab evaluates',
      stored('completed', 3),
      null,
      { r: null },
      { word: 'completed', where: 'another tab' },
    ],
    [
      'stored running and no tab holds it: interrupted',
      stored('running'),
      null,
      NOBODY,
      { word: 'interrupted', where: null },
    ],
    ['interrupted before its first commit', stored('running', 0), null, NOBODY, { word: 'interrupted', where: null }],
    ['aborted by a person', stored('aborted'), null, NOBODY, { word: 'aborted', where: null }],
    ['stopped by a full disk', stored('stopped'), null, NOBODY, { word: 'stopped', where: null }],
    ['stored paused by an older version', stored('paused'), null, NOBODY, { word: 'paused', where: null }],
    ['completed', stored('completed', 3), null, NOBODY, { word: 'completed', where: null }],
    [
      'every planned epoch committed, the tab gone before it wrote completed',
      stored('running', 3),
      null,
      NOBODY,
      { word: 'completed', where: null },
    ],
    ['failed', stored('failed'), null, NOBODY, { word: 'failed', where: null }],
    [
      'failed stays failed with every epoch committed',
      stored('failed', 3),
      null,
      NOBODY,
      { word: 'failed', where: null },
    ],
  ];
  it.each(cases)('%s', (_what, meta, heldHere, elsewhere, expected) => {
    expect(runStatus(meta, heldHere, elsewhere)).toEqual(expected);
  });

  it('says where in a list: only another tab is named', () => {
    expect(statusText({ word: 'running', where: 'another tab' })).toBe('running in another tab');
    expect(statusText({ word: 'running', where: 'this tab' })).toBe('running');
    expect(statusText({ word: 'interrupted', where: null })).toBe('interrupted');
  });
});
