import type { RunStore } from '../../core/ports/store-port.ts';
import type { MemoryRecord } from '../../core/loop/memory.ts';
import { planSlotMemory } from '../../core/loop/slot-memory-plan.ts';

/** A remembered environment as a designer prompt shows it. */
export interface RememberedEnv {
  envId: string;
  /** Its class name, when its record is stored. */
  title: string | null;
  skill: string;
  /** The share of its first rollout's kept unhinted plays won (what memory keeps). */
  winRate: number;
  regret: number;
}

/** One slot of the next epoch: the examples its designer prompts show, and the one they name to avoid. */
export interface NextSlotMemory {
  slot: number;
  skill: string;
  /** The id its environment will get. */
  envId: string;
  positives: RememberedEnv[];
  negative: (RememberedEnv & { reason: 'too easy' | 'too hard' }) | null;
}

/** What the designer will see from memory in a run's next epoch. */
export type NextMemory =
  | { kind: 'fixed-pool' }
  | { kind: 'off' }
  | {
      kind: 'shown';
      /** The next epoch's index (0 the first). */
      epoch: number;
      /** Records the memory holds before it. */
      memorySize: number;
      /** How many of them each skill has, in the order the skills first appear in memory. */
      remembered: Array<{ skill: string; count: number }>;
      slots: NextSlotMemory[];
    };

/**
 * Reads a stored run's state and draws, with the loop's own selection (`planSlotMemory`), what each
 * designer prompt of its next epoch will show; null when the run is not stored.
 */
export async function loadNextMemory(store: RunStore, runId: string): Promise<NextMemory | null> {
  const loaded = await store.loadRun(runId);
  if (!loaded) return null;
  const { meta, state } = loaded;
  if (meta.fixedPool) return { kind: 'fixed-pool' };
  if (!meta.config.useMemory) return { kind: 'off' };
  const plans = planSlotMemory(meta.config, state.memory, state.epoch);
  const titles = new Map<string, string | null>();
  const shown = async (record: MemoryRecord): Promise<RememberedEnv> => {
    if (!titles.has(record.envId)) {
      const env = await store.getEnvironment(runId, record.envId);
      titles.set(record.envId, env?.attempts.find((a) => a.validation.ok)?.validation.className ?? null);
    }
    return {
      envId: record.envId,
      title: titles.get(record.envId)!,
      skill: record.skill,
      winRate: record.winRate,
      regret: record.regret,
    };
  };
  const slots: NextSlotMemory[] = [];
  for (const plan of plans) {
    const positives = await Promise.all(plan.selection?.positives.map(shown) ?? []);
    const negative = plan.selection?.negative
      ? { ...(await shown(plan.selection.negative.record)), reason: plan.selection.negative.reason }
      : null;
    slots.push({ slot: plan.slot, skill: plan.skill, envId: plan.envId, positives, negative });
  }
  const counts = new Map<string, number>();
  for (const record of state.memory) counts.set(record.skill, (counts.get(record.skill) ?? 0) + 1);
  const remembered = [...counts].map(([skill, count]) => ({ skill, count }));
  return { kind: 'shown', epoch: state.epoch, memorySize: state.memory.length, remembered, slots };
}
