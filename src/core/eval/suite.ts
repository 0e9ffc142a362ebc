/** One environment of an evaluation suite or a fixed pool: played as it is, never shown to the designer. */
export interface SuiteEnvironment {
  /** Stable id within its suite (the file name without `.py` for the built-in suite). */
  id: string;
  skill: string;
  code: string;
  /** A human title, when the suite names one. */
  title: string | null;
}

/** A named, fixed set of environments: a held-out evaluation suite or a fixed training pool. */
export interface Suite {
  /** `builtin`, a file or folder name, or `run <name> at epoch <n>` (a run's pool frozen at an epoch). */
  name: string;
  /** SHA-256 (hex) of the environments' ids, skills and code: two runs evaluated on the same suite share it. */
  sha256: string;
  environments: SuiteEnvironment[];
}

/** The text a suite's sha256 is taken of: every environment's id, skill and code, in order. */
export function suiteDigestText(environments: readonly SuiteEnvironment[]): string {
  return JSON.stringify(environments.map((env) => [env.id, env.skill, env.code]));
}
