/** Memory one booted interpreter holds, as budgeted when sizing the pool (a Pyodide child measures about 180-250 MB). */
export const INTERPRETER_BUDGET_BYTES = 256 * 1024 * 1024;

/**
 * Booted spares kept beyond one per core: a hang kills its interpreter, which only a boot (0.6 to
 * several CPU-seconds) replaces, so two hangs killed back to back still leave a spare for the next
 * environment on any machine instead of making it wait for a boot.
 */
export const HANG_RESERVE = 2;

/**
 * Environments one interpreter holds at most, all but one parked (a park or a resume copies a few
 * MB, milliseconds, where a boot takes most of a CPU-second): when no spare waits, a new
 * environment shares the least shared interpreter rather than wait for a boot.
 */
export const TENANTS_PER_INTERPRETER = 8;

/** How many interpreters a machine keeps booted ahead and boots side by side. */
export interface PoolSize {
  /** Interpreters kept booted and waiting; also how many plays are loaded ahead of their turn. */
  spares: number;
  /** Interpreters booted side by side at most. */
  bootsAtOnce: number;
  /** Interpreters kept waiting at most, booted or restored after an environment (a restored one spares a later boot). */
  kept: number;
}

/**
 * The pool for a machine with `cores` cores and `freeBytes` of memory to spare: a booted spare
 * per core (a boot is CPU-bound, so more cannot be refilled faster) and `HANG_RESERVE` more, at
 * most as many as half the free memory holds, never capped at a fixed count; boots on every core
 * but `reservedCores`; keeps as many waiting as half the free memory holds.
 */
export function poolSize(cores: number, freeBytes: number, reservedCores = 0): PoolSize {
  const usable = Math.max(1, Math.floor(cores));
  const byMemory = Math.max(1, Math.floor(freeBytes / 2 / INTERPRETER_BUDGET_BYTES));
  return {
    spares: Math.min(usable + HANG_RESERVE, byMemory),
    bootsAtOnce: Math.max(1, usable - reservedCores),
    kept: byMemory,
  };
}
