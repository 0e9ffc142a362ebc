import type { Suite } from '../../core/eval/suite.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { ImportProblem } from '../../formats/export/files.ts';
import { checkPool } from './pool-check.ts';
import type { PoolFiles } from './suite-source.ts';
import { errorMessage } from '../../core/error-message.ts';

/** Where choosing a fixed pool stands. */
export interface PoolChoice {
  phase: 'none' | 'reading' | 'validating' | 'ready' | 'failed';
  /** What is being read: the bundled pool's name, or the picked files. */
  source: string | null;
  done: number;
  total: number;
  pool: Suite | null;
  problems: ImportProblem[];
  error: string | null;
}

const NO_CHOICE: PoolChoice = { phase: 'none', source: null, done: 0, total: 0, pool: null, problems: [], error: null };

/** What the picker needs from the composition root. */
export interface FixedPoolDeps {
  sandbox: () => SandboxRuntime;
  /** The held-out suite (kept out of training pools); absent: nothing is left out for it (a pool picked as a held-out suite). */
  heldOut?: () => Promise<Suite>;
  /** The bundled pool's name and files; absent: only picked files. */
  bundled?: () => Promise<{ name: string; read: PoolFiles }>;
  /** Picked files (a zip, a folder or .py files) as the pool reader reads them. */
  readPicked: (picked: File[]) => Promise<PoolFiles>;
}

/** A pool chosen and validated before use: the new-run form's fixed pool (the bundled pool or an imported one), or an imported held-out suite. */
export class FixedPoolPicker {
  /** The choice as it stands, replaced on every change. */
  state: PoolChoice = $state.raw(NO_CHOICE);
  private sequence = 0;

  constructor(private readonly deps: FixedPoolDeps) {}

  /** True when the picker offers a bundled pool. */
  get hasBundled(): boolean {
    return this.deps.bundled !== undefined;
  }

  /** Reads and validates the bundled pool (when there is one). */
  async useBundled(): Promise<void> {
    const bundled = this.deps.bundled;
    if (bundled) await this.check('the bundled pool', bundled);
  }

  /** Reads and validates picked files (a pool zip, a pool folder, or .py files with a manifest). */
  usePicked(picked: FileList | File[]): Promise<void> {
    const files = [...picked];
    const label = files.length === 1 ? files[0]!.name : `${files.length} files`;
    const name =
      files.length === 1
        ? files[0]!.name.replace(/\.zip$/i, '')
        : (files[0]?.webkitRelativePath.split('/')[0] ?? '') || 'imported pool';
    return this.check(label, async () => ({ name, read: await this.deps.readPicked(files) }));
  }

  /** Forgets the choice (back to the designer). */
  clear(): void {
    this.sequence++;
    this.state = NO_CHOICE;
  }

  private async check(source: string, read: () => Promise<{ name: string; read: PoolFiles }>): Promise<void> {
    const mine = ++this.sequence;
    const set = (patch: Partial<PoolChoice>) => {
      if (mine === this.sequence) this.state = { ...this.state, ...patch };
    };
    this.state = { ...NO_CHOICE, phase: 'reading', source };
    try {
      const [files, heldOut] = await Promise.all([
        read(),
        this.deps.heldOut ? this.deps.heldOut().catch(() => null) : null,
      ]);
      set({ phase: 'validating' });
      const checked = await checkPool(files.name, files.read, {
        sandbox: this.deps.sandbox(),
        heldOut,
        onProgress: (done, total) => set({ done, total }),
      });
      const unchecked: ImportProblem[] =
        heldOut || !this.deps.heldOut
          ? []
          : [
              {
                source,
                reason: 'the held-out suite could not be read, so the pool was not checked against it',
                kept: true,
              },
            ];
      const error = checked.pool
        ? null
        : `No environment of ${source} can be used: every one was left out (reasons below).`;
      set({
        phase: checked.pool ? 'ready' : 'failed',
        pool: checked.pool,
        problems: [...unchecked, ...checked.problems],
        error,
      });
    } catch (cause) {
      set({ phase: 'failed', error: `${source} could not be read: ${errorMessage(cause)}` });
    }
  }
}
