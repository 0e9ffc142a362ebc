// The harness's caps on what an environment may return, in one place for the host: encoding.py and
// harness.py use the same numbers (tests/core/env/sandbox-limits.test.ts reads them there), and
// the host measures every value again with them, trusting nothing the sandbox says about sizes.

/** Levels of containers an info dict keeps, the dict itself being the first; the harness turns deeper lists and dicts into their repr. */
export const INFO_MAX_DEPTH = 20;
/** Longest class or exception name the harness sends, in characters. */
export const NAME_CHARS = 100;
/** Longest exception message the harness sends, in characters. */
export const MESSAGE_CHARS = 2000;
/** Longest repr of a value of another type the harness sends, in characters. */
export const REPR_CHARS = 200;
/** Default longest output of an environment (an observation, a solution, an info dict as JSON text), in Python characters. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000;
