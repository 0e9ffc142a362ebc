import type { Lesson } from '../../core/playbook/lesson.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import type { RunController } from './run-controller.svelte.ts';
import { addUserLesson, editLessonText, restoreLesson, retireLesson, type PlaybookEdit } from './playbook-view.ts';
import { errorMessage } from '../../core/error-message.ts';

/** What the playbook panel needs from the composition root. */
export interface PlaybookDeps {
  store: Pick<RunStore, 'loadRun' | 'updatePlaybook'>;
  /** The open run's controller: the playbook is edited only when its run is not running. */
  run: Pick<RunController, 'status' | 'readOnly'>;
}

/** The open run's playbook (a tab addition): its lessons, and a person's edits, saved between epochs with `updatePlaybook`. */
export class PlaybookController {
  /** The run whose playbook is loaded, or null. */
  runId: string | null = $state(null);
  /** The lessons as last read or saved. */
  lessons: Lesson[] = $state.raw([]);
  /** Why the last change was refused or not saved, or null. */
  error: string | null = $state(null);

  constructor(private readonly deps: PlaybookDeps) {}

  /** Why the playbook cannot be edited now (its run is running or paused mid-epoch, here or in another tab), or null when it can. */
  get lockedReason(): string | null {
    if (this.deps.run.readOnly)
      return 'Another tab is running this run, and its next epoch would overwrite the edits. Edit the playbook when the run has stopped.';
    const status = this.deps.run.status;
    if (status === 'running' || status === 'paused' || status === 'stopping')
      return 'The run is running (or paused inside an epoch), and that epoch would overwrite the edits when it is saved. Edit the playbook when the run has stopped: after its last epoch, or abort it.';
    return null;
  }

  /** Reads a run's playbook (its latest stored state's). */
  async load(runId: string): Promise<void> {
    const loaded = await this.deps.store.loadRun(runId);
    this.runId = runId;
    this.lessons = loaded?.state.playbook ?? [];
    this.error = null;
  }

  /** Replaces a lesson's text; false (with `error`) when refused. */
  edit(id: string, text: string): Promise<boolean> {
    return this.change((playbook) => editLessonText(playbook, id, text));
  }

  /** Retires a lesson. */
  retire(id: string): Promise<boolean> {
    return this.change((playbook) => retireLesson(playbook, id));
  }

  /** Makes a retired lesson active again. */
  restore(id: string): Promise<boolean> {
    return this.change((playbook) => restoreLesson(playbook, id));
  }

  /** Adds a person's lesson for a skill, written after `epochsCompleted` epochs. */
  add(skill: string, text: string, epochsCompleted: number): Promise<boolean> {
    return this.change((playbook) => addUserLesson(playbook, skill, text, epochsCompleted));
  }

  /** Applies a change to the stored playbook (read again first, so a change never works on a stale copy) and saves it. */
  private async change(make: (playbook: Lesson[]) => PlaybookEdit): Promise<boolean> {
    const runId = this.runId;
    if (!runId) return false;
    const locked = this.lockedReason;
    if (locked) {
      this.error = locked;
      return false;
    }
    try {
      const current = (await this.deps.store.loadRun(runId))?.state.playbook ?? [];
      const edit = make(current);
      if (!edit.playbook) {
        this.error = `Not saved: ${edit.problems.join('; ')}.`;
        return false;
      }
      await this.deps.store.updatePlaybook(runId, edit.playbook);
      if (this.runId === runId) this.lessons = edit.playbook;
      this.error = null;
      return true;
    } catch (cause) {
      this.error = `The playbook could not be saved: ${errorMessage(cause)}. It is unchanged.`;
      return false;
    }
  }
}
