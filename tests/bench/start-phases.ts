import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { startRig } from '../browser/harness.ts';

/** One phase of a fresh page's Python start: when it ended, how long it took, and the CPU the whole browser spent in it. */
export interface Phase {
  name: string;
  atMs: number;
  ms: number;
  cpuSeconds: number;
}

/** The phases of each round, and when the last Pyodide file arrived in the app's start. */
export interface StartPhaseFigures {
  start: Phase[][];
  replica: Phase[][];
  downloadsDoneMs: number[];
}

const TICKS_PER_SECOND = 100;

// CPU seconds so far of the process `pid` and every process under it (Chromium's renderers, GPU and utility processes).
function treeCpuSeconds(rootPid: number): number {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
          .replace(/^.*\) /, '')
          .split(' ');
        return { pid: Number(pid), parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
      } catch {
        return null;
      }
    })
    .filter((stat) => stat !== null);
  const inTree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const stat of stats)
      if (!inTree.has(stat.pid) && inTree.has(stat.parent)) grew = inTree.add(stat.pid).size > 0;
  }
  return stats.filter((stat) => inTree.has(stat.pid)).reduce((sum, stat) => sum + stat.ticks, 0) / TICKS_PER_SECOND;
}

// The pid of the Chromium launched with `marker` among its arguments.
function browserPid(marker: string): number {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return Number(pid);
    } catch {
      continue;
    }
  }
  throw new Error('could not find the benchmark Chromium');
}

// Runs `call` on a fresh page of the phase page and returns its phases (a mark's time and CPU since the one before).
async function phasesOf<T>(
  open: () => Promise<Page>,
  rootPid: number,
  call: string,
): Promise<{ phases: Phase[]; result: T }> {
  const page = await open();
  const marks: { name: string; at: number; cpu: number }[] = [];
  await page.exposeFunction('spadeMark', (name: string) => {
    marks.push({ name, at: performance.now(), cpu: treeCpuSeconds(rootPid) });
  });
  await page.waitForFunction('typeof window.spadeStart === "function"', undefined, { timeout: 60_000 });
  const result = (await page.evaluate(call)) as T;
  await page.context().close();
  const phases = marks.slice(1).map((mark, i) => ({
    name: mark.name,
    atMs: mark.at - marks[0]!.at,
    ms: mark.at - marks[i]!.at,
    cpuSeconds: mark.cpu - marks[i]!.cpu,
  }));
  return { phases, result };
}

/**
 * Times a fresh page's Python start phase by phase, `rounds` times in fresh contexts of one
 * Chromium on the dev server (after an untimed page that makes the server bundle its worker): the
 * app's start (first interpreter ready, Python ready, first environment validated), and the frame's
 * one-time steps replicated one by one on a page's main thread. CPU is the whole browser's
 * (every Chromium process), so other work on the machine does not count.
 */
export async function measureStartPhases(rounds = 3): Promise<StartPhaseFigures> {
  const marker = `--spade-bench-marker=${randomUUID()}`;
  const rig = await startRig([marker]);
  try {
    const rootPid = browserPid(marker);
    const open = () => rig.open('/tests/bench/start-phases-page.html');
    await phasesOf(open, rootPid, 'window.spadeStart()');
    const figures: StartPhaseFigures = { start: [], replica: [], downloadsDoneMs: [] };
    for (let round = 0; round < rounds; round++) {
      const start = await phasesOf<{ downloadsDoneMs: number }>(open, rootPid, 'window.spadeStart()');
      figures.start.push(start.phases);
      figures.downloadsDoneMs.push(start.result.downloadsDoneMs);
      figures.replica.push((await phasesOf(open, rootPid, 'window.spadeReplica()')).phases);
    }
    return figures;
  } finally {
    await rig.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

// Each phase's medians over the rounds (the rounds have the same phases in the same order).
function phaseLines(rounds: Phase[][]): string[] {
  return rounds[0]!.map((phase, i) => {
    const of = (pick: (p: Phase) => number) => median(rounds.map((round) => pick(round[i]!)));
    return `  ${phase.name.padEnd(52)} ${of((p) => p.ms)
      .toFixed(0)
      .padStart(6)} ms   at ${of((p) => p.atMs)
      .toFixed(0)
      .padStart(6)} ms   CPU ${of((p) => p.cpuSeconds).toFixed(2)} s`;
  });
}

/** The figures as `npm run bench` prints them. */
export function formatStartPhases(f: StartPhaseFigures): string {
  return [
    `Python start in a fresh page, phase by phase (Chromium, dev server, medians of ${f.start.length}; CPU: every Chromium process)`,
    ...phaseLines(f.start),
    `  (the last Pyodide file arrived at ${median(f.downloadsDoneMs).toFixed(0)} ms)`,
    "The frame's one-time steps, each alone on a page's main thread",
    ...phaseLines(f.replica),
    '',
  ].join('\n');
}
