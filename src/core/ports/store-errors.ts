/** Stable codes of store failures. */
export type StoreErrorCode =
  /** The browser's storage quota is used up; the epoch was not written. */
  | 'quota_exceeded'
  /** The epoch does not follow the last committed one (another tab or process may hold the run). */
  | 'epoch_conflict'
  /** No run with that id. */
  | 'no_run'
  /** A run with that id already exists. */
  | 'run_exists'
  /** A record could not be stored (e.g. it holds a value that cannot be cloned). */
  | 'bad_record'
  /** The database was closed (another tab upgraded it, or the browser closed it). */
  | 'closed'
  /** Stored data does not have the expected shape. */
  | 'corrupt';

/** A store failure with a stable code; the message says what was expected, what was seen and what to do. */
export class StoreError extends Error {
  override readonly name: string = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Storage is full: the epoch was rolled back, nothing of it was written, and the run can continue once space is freed. */
export class StoreQuotaError extends StoreError {
  override readonly name = 'StoreQuotaError';
  constructor(what: string, options?: { cause?: unknown }) {
    super(
      'quota_exceeded',
      `Storage is full: ${what} did not fit in the browser's storage quota, so nothing of it was written and the run stopped at its last committed epoch. ` +
        'Free space (delete old runs or export and remove them), or allow persistent storage, then continue.',
      options,
    );
  }
}

/** The error commitEpoch throws when an epoch does not follow the run's last committed one. */
export function epochConflict(runId: string, expected: number, seen: number): StoreError {
  return new StoreError(
    'epoch_conflict',
    `Run ${runId}: expected epoch ${expected} (the next after the last committed one), got epoch ${seen}. ` +
      'Another tab or process may be running this run; reload it and continue from its last committed epoch.',
  );
}

/** The error for a run id that is not in the store. */
export function noRun(runId: string): StoreError {
  return new StoreError(
    'no_run',
    `No run with id ${JSON.stringify(runId)} in the store; list the runs to see which exist.`,
  );
}
