import { readFileSync } from 'node:fs';

/** Browser interpreter starts, measured. */
export interface BrowserBootFigures {
  medianMs: number;
  /** Machine-wide CPU seconds (user, system and interrupts of every core) per start. */
  cpuSecondsEach: number;
}

// CPU time of the whole machine so far, in seconds (Linux /proc/stat counts in 1/100 s).
function machineCpuSeconds(): number {
  const [user, nice, system, , , irq, softirq] = readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user! + nice! + system! + irq! + softirq!) / 100;
}

/** Times `count` interpreter starts of the app's spawner (one frame, Pyodide compiled once), after one untimed start. */
export async function measureBrowserBoots(
  boot: (count: number) => Promise<number[]>,
  count = 5,
): Promise<BrowserBootFigures> {
  await boot(1);
  const cpuBefore = machineCpuSeconds();
  const times = (await boot(count)).sort((a, b) => a - b);
  return {
    medianMs: times[Math.floor((times.length - 1) / 2)]!,
    cpuSecondsEach: (machineCpuSeconds() - cpuBefore) / count,
  };
}
