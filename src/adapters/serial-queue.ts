/** Runs async calls one at a time, in the order they were made; a failure does not block later calls. */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  /** Runs `task` after every earlier task has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
