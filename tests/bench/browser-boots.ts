import { readFileSync } from 'node:fs';

/** One way of starting browser interpreters, measured. */
export interface BrowserBootFigures {
  label: string;
  medianMs: number;
  /** Machine-wide CPU seconds (user, system and interrupts of every core) per start. */
  cpuSecondsEach: number;
}

// CPU time of the whole machine so far, in seconds (Linux /proc/stat counts in 1/100 s).
function machineCpuSeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
}

/**
 * Times `count` interpreter starts of each kind (after one untimed start of each): a new frame per
 * interpreter, as before the shared frame, and one shared frame that compiles Pyodide once.
 */
export async function measureBrowserBoots(boot: (kind: 'fresh' | 'shared', count: number) => Promise<number[]>, count = 5): Promise<BrowserBootFigures[]> {
  const figures: BrowserBootFigures[] = [];
  for (const [kind, label] of [
    ['fresh', 'a frame and a full compile per interpreter'],
    ['shared', 'one frame, Pyodide compiled once (the app)'],
  ] as const) {
    await boot(kind, 1);
    const cpuBefore = machineCpuSeconds();
    const times = (await boot(kind, count)).sort((a, b) => a - b);
    figures.push({ label, medianMs: times[Math.floor((times.length - 1) / 2)]!, cpuSecondsEach: (machineCpuSeconds() - cpuBefore) / count });
  }
  return figures;
}
