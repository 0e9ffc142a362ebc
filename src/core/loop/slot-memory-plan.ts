import type { Config } from '../config.ts';
import { designRng, slotMemory } from './design-slot.ts';
import { environmentId, planSlots } from './epoch.ts';
import type { MemoryRecord, MemorySelection } from './memory.ts';

/** One designed slot of an epoch and what its designer prompts show from memory. */
export interface SlotMemoryPlan {
  slot: number;
  skill: string;
  /** The id the slot's environment will get. */
  envId: string;
  /** The remembered examples its prompts show; null when the run keeps no memory. */
  selection: MemorySelection | null;
}

/**
 * What each designer prompt of `epoch` will show from `memory` (the run state's memory before that
 * epoch), drawn exactly as the loop draws it: the same slot plan, the same per-slot seed, the same
 * selection. A fixed-pool run designs nothing, so none of this is shown there.
 */
export function planSlotMemory(config: Config, memory: readonly MemoryRecord[], epoch: number): SlotMemoryPlan[] {
  return planSlots(config, epoch).map(({ slot, skill }) => {
    const envId = environmentId(epoch, slot);
    return { slot, skill, envId, selection: slotMemory(config, memory, skill, designRng(config.seed, envId)) };
  });
}
