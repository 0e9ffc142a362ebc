import type { ValidationReport } from '../../core/env/validate-env.ts';

/** Validates one environment's code. */
export type ValidateCode = (code: string) => Promise<ValidationReport>;

/** One entry's verdict, and which entry's validation it is (its own index when it was validated itself). */
export interface EntryVerdict {
  report: ValidationReport;
  /** Index of the first entry with the same normalised code: the one that was validated. */
  validatedAs: number;
}

/**
 * Code as Python compiles it: CRLF and lone CR line ends become LF (the parser reads them alike),
 * so copies that differ only in line ends share one validation.
 */
export function normalisedCode(code: string): string {
  return code.replace(/\r\n?/g, '\n');
}

/** A validator that runs each distinct normalised code once (on the normalised code) and gives every later copy the first one's report. */
export function validateOnce(validate: ValidateCode): ValidateCode {
  const seen = new Map<string, Promise<ValidationReport>>();
  return (code) => {
    const key = normalisedCode(code);
    let report = seen.get(key);
    if (!report) seen.set(key, (report = validate(key)));
    return report;
  };
}

/**
 * Validates `codes` with each distinct normalised code run once, `parallelism` validations in
 * flight, started in the entries' order; the verdicts come back in that order whatever finishes
 * first. `onProgress` gets the distinct codes validated so far and their count.
 */
export async function validateEntries(
  codes: readonly string[],
  validate: ValidateCode,
  parallelism: number,
  onProgress?: (done: number, total: number) => void,
): Promise<EntryVerdict[]> {
  const firstOf = new Map<string, number>();
  const validatedAs = codes.map((code, i) => {
    const key = normalisedCode(code);
    if (!firstOf.has(key)) firstOf.set(key, i);
    return firstOf.get(key)!;
  });
  const distinct = [...firstOf.values()];
  const reports = new Map<number, ValidationReport>();
  let next = 0;
  const lane = async () => {
    while (next < distinct.length) {
      const index = distinct[next++]!;
      reports.set(index, await validate(normalisedCode(codes[index]!)));
      onProgress?.(reports.size, distinct.length);
    }
  };
  const lanes = Math.max(1, Math.min(Math.floor(parallelism) || 1, distinct.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return validatedAs.map((first) => ({ report: reports.get(first)!, validatedAs: first }));
}
