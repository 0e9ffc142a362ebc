// The designer and repair prompts of a recorded epoch, rebuilt as trim ladders for the prompt-size
// bench: each slot's draws replayed as designSlot makes them (memory first, then a document per
// fresh attempt), each ladder's level 0 checked against the request the epoch really sent.
import {
  chooseDifficulty,
  designRng,
  slotDomain,
  slotMemory,
  slotTaskVariant,
} from '../../src/core/loop/design-slot.ts';
import { docsForSkill, truncateWords, type CorpusDoc } from '../../src/core/loop/corpus.ts';
import type { EpochResult, RunState } from '../../src/core/loop/epoch.ts';
import type { Config } from '../../src/core/config.ts';
import { designerLadder, repairLadder } from '../../src/core/prompts/designer-ladder.ts';
import type { PromptLadder } from '../../src/core/budget/fit-request.ts';
import type { ChatRequest } from '../../src/core/ports/chat-port.ts';
import { skillDescription } from '../../src/core/skills.ts';
import { qwen3PromptTokens } from '../fixtures/qwen3-chatml.ts';

function checkSent(ladder: PromptLadder, sent: readonly ChatRequest[], what: string): void {
  const whole = JSON.stringify(ladder(0));
  if (!sent.some((r) => JSON.stringify(r.messages) === whole))
    throw new Error(`the rebuilt ${what} prompt is not one the epoch sent: the bench no longer mirrors designSlot`);
}

/** The epoch's largest designer prompt and its largest repair prompt (null when it made none), as ladders. */
export function designerLadders(
  config: Config,
  state: RunState,
  epoch: EpochResult,
  corpus: readonly CorpusDoc[],
  sent: readonly ChatRequest[],
): { design: PromptLadder | null; repair: PromptLadder | null } {
  const size = (ladder: PromptLadder | null) => (ladder ? qwen3PromptTokens(ladder(0)!) : -1);
  let design: PromptLadder | null = null;
  let repair: PromptLadder | null = null;
  for (const env of epoch.environments) {
    const rng = designRng(config.seed, env.id);
    const memory = slotMemory(config, state.memory, env.skill, rng);
    const difficulty = chooseDifficulty(config, state.memory, env.skill);
    const pool = config.useCorpus ? docsForSkill(corpus, env.skill) : [];
    const domain = config.setting === 'tool_use' ? slotDomain(config.seed, env.id) : undefined;
    const taskVariant = config.setting === 'tool_use' ? slotTaskVariant(config.seed, env.id) : undefined;
    let previous: PromptLadder | null = null;
    env.attempts.forEach((attempt, index) => {
      if (attempt.repair) {
        const before = env.attempts[index - 1]!;
        const ladder = repairLadder(
          previous!,
          before.reply,
          before.validation.message ?? 'unknown failure',
          config.prompts,
        );
        checkSent(ladder, sent, 'repair');
        if (size(ladder) > size(repair)) repair = ladder;
        return;
      }
      const doc = pool.length > 0 ? pool[rng.int(pool.length)]! : null;
      const input = {
        skill: env.skill,
        skillDescription: skillDescription(env.skill),
        document: doc ? truncateWords(doc.text, config.corpusWordBudget) : null,
        memory,
        difficulty,
        maxTurns: config.maxTurns,
        ...(domain !== undefined ? { domain } : {}),
        ...(taskVariant !== undefined ? { taskVariant } : {}),
      };
      previous = designerLadder(input, config.prompts);
      checkSent(previous, sent, 'designer');
      if (size(previous) > size(design)) design = previous;
    });
  }
  return { design, repair };
}
