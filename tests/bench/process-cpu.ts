// CPU seconds of Node sandbox host processes, read from /proc (the benches that start hosts measure them).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a live process has used so far, all its threads (ended ones too) included. */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command name: state is field 3, utime field 14, stime field 15 (1-based, proc(5)).
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds of this process's children that have exited and been reaped. */
export function reapedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // cutime is field 16, cstime field 17.
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / TICKS_PER_SECOND;
}
