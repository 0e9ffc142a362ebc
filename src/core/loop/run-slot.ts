import { designSlot, type SlotDesign } from './design-slot.ts';
import type { EpochContext } from './epoch-context.ts';
import { hintEnvironment } from './hint-environment.ts';
import { EnvironmentPlays } from './play-environment.ts';
import { poolRecord, poolSlots } from './pool-slot.ts';
import { environmentId, planSlots } from './slot-plan.ts';
import type { EnvironmentRecord, Episode } from '../records.ts';

/** A slot of the epoch: its skill, and the environment a fixed-pool run plays in it instead of designing one. */
export interface PlannedSlot {
  slot: number;
  skill: string;
  pooled?: EnvironmentRecord;
}

/** What one slot produced: its environment (hinted when it was valid) and its episodes in schedule order. */
export interface SlotOutcome {
  environment: EnvironmentRecord;
  episodes: Episode[];
}

// Each unit's place in the order a sequential run takes: every design, then every hint, then the plays slot by slot.
const DESIGN_ORDER = 0;
const HINT_ORDER = 1;
const PLAY_ORDER = 2;

/** The epoch's slots (docs/method.md section 1, step 1), announced: a skill each to design for, or a fixed-pool run's next environments in turn. */
export function planEpoch(ctx: EpochContext): PlannedSlot[] {
  const { config, epoch, emit } = ctx;
  const pool = ctx.ports.fixedPool;
  if (!pool || pool.length === 0) {
    const slots = planSlots(config, epoch);
    emit({ type: 'epoch_started', epoch, slots });
    return slots;
  }
  const picks = poolSlots(pool, config, epoch);
  emit({ type: 'epoch_started', epoch, slots: picks.map(({ slot, skill }) => ({ slot, skill })) });
  return picks.map(({ slot, skill, env }) => {
    const pooled = poolRecord(environmentId(epoch, slot), epoch, slot, env);
    emit({ type: 'pool_environment', epoch, slot, envId: pooled.id, poolId: env.id, skill: env.skill });
    return { slot, skill, pooled };
  });
}

/**
 * One slot, top to bottom (docs/method.md section 1, steps 2 to 6), each step awaiting its turn on
 * the epoch's scheduler: design and validate an environment (a fixed pool's is taken as it is);
 * when it is valid, ask for its hint while its unhinted plays run; once the hint is in, play the
 * hinted arm. Another slot's steps run beside these up to the run's concurrency.
 */
export async function runSlot(ctx: EpochContext, planned: PlannedSlot): Promise<SlotOutcome> {
  const { scheduler } = ctx;
  const designed =
    planned.pooled ??
    (await scheduler.turn({ stage: 'design', order: [DESIGN_ORDER, planned.slot], run: () => design(ctx, planned) }));
  if (designed.status === 'rejected') return { environment: designed, episodes: [] };
  const plays = new EnvironmentPlays(
    designed,
    ctx.model,
    ctx.ports.sandbox,
    ctx.config,
    ctx.emit,
    ctx.lessonsOf(designed.skill).map((l) => l.text),
  );
  try {
    const unhinted = plays.playArm('nohint', scheduler, [PLAY_ORDER, planned.slot]);
    const environment = await scheduler.turn({
      stage: 'hint',
      order: [HINT_ORDER, planned.slot],
      run: () => hint(ctx, designed),
    });
    plays.setHint(environment.hint);
    const hinted = environment.hint !== null ? plays.playArm('hint', scheduler, [PLAY_ORDER, planned.slot]) : undefined;
    await Promise.all([unhinted, hinted]);
    return { environment, episodes: plays.episodes };
  } finally {
    await plays.close();
  }
}

// Steps 2 and 3: up to `attemptsPerSlot` designs, each validated; the slot's record, valid or rejected.
async function design(ctx: EpochContext, { slot, skill }: PlannedSlot): Promise<EnvironmentRecord> {
  const { epoch, emit } = ctx;
  const envId = environmentId(epoch, slot);
  const designed = await designSlot({
    epoch,
    slot,
    skill,
    envId,
    config: ctx.config,
    corpus: ctx.ports.corpus,
    memory: ctx.state.memory,
    model: ctx.model,
    sandbox: ctx.ports.sandbox,
    onAttemptStart: (attempt, docId, repair) =>
      emit({ type: 'design_started', epoch, slot, attempt, skill, docId, repair }),
    onToken: (delta) => emit({ type: 'token', epoch, source: { purpose: 'designer', slot, envId }, delta }),
    onReplied: (attempt) => emit({ type: 'design_replied', epoch, slot, attempt }),
    onValidated: (attempt, report) => emit({ type: 'validated', epoch, slot, attempt, report }),
  });
  const record = designRecord(envId, epoch, slot, skill, designed);
  if (!designed.valid) emit({ type: 'slot_rejected', epoch, slot, envId });
  return record;
}

// Step 4: the environment's record with its hint, or with the reason it has none.
async function hint(ctx: EpochContext, env: EnvironmentRecord): Promise<EnvironmentRecord> {
  const hinted = await hintEnvironment(env, ctx.model, ctx.config, ctx.emit);
  const record = {
    ...env,
    hintMessages: hinted.messages,
    hintReply: hinted.reply,
    hint: hinted.hint,
    note: hinted.note,
    hintUsage: hinted.usage,
  };
  ctx.emit({ type: 'hinted', epoch: ctx.epoch, envId: env.id, hint: record.hint, note: record.note });
  return record;
}

function designRecord(id: string, epoch: number, slot: number, skill: string, design: SlotDesign): EnvironmentRecord {
  const chosen = design.valid ?? design.attempts[design.attempts.length - 1];
  return {
    id,
    epoch,
    slot,
    skill,
    difficulty: design.difficulty,
    docId: design.docId,
    ...(design.domain !== undefined ? { domain: design.domain } : {}),
    status: design.valid ? 'valid' : 'rejected',
    code: chosen?.code ?? '',
    attempts: design.attempts,
    memoryShown: design.memoryShown,
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
  };
}
