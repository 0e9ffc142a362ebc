import type { ChatMessage, ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { GAME_SKILLS } from '../skills.ts';
import { docsForSkill, truncateWords, type CorpusDoc } from './corpus.ts';
import { drawChallenge, validateEnvironment, type ValidationReport } from '../env/validate-env.ts';
import { selectMemory, type MemoryRecord } from './memory.ts';
import { buildDesignerPrompt, buildRepairPrompt } from '../prompts/designer-prompt.ts';
import { createRng, deriveSeed } from './random.ts';
import type { DesignAttempt, ValidationVerdict } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';

/** What designing one slot needs. */
export interface SlotContext {
  epoch: number;
  slot: number;
  skill: string;
  envId: string;
  config: Config;
  corpus: readonly CorpusDoc[];
  memory: readonly MemoryRecord[];
  model: ChatModel;
  sandbox: SandboxRuntime;
  onAttemptStart(attempt: number, docId: string | null, repair: boolean): void;
  onToken(delta: string): void;
  onValidated(attempt: number, report: ValidationReport): void;
}

/** A designed slot: every attempt, and the valid one if any. */
export interface SlotDesign {
  attempts: DesignAttempt[];
  valid: DesignAttempt | null;
  docId: string | null;
  difficulty: 'easy' | 'medium' | 'hard';
  memoryShown: { positives: string[]; negative: string | null };
}

/** The difficulty word: fixed, or (adaptive) from the skill's remembered win rates. */
export function chooseDifficulty(config: Config, memory: readonly MemoryRecord[], skill: string): 'easy' | 'medium' | 'hard' {
  if (config.difficulty !== 'adaptive') return config.difficulty;
  const rates = memory
    .filter((r) => r.skill === skill)
    .slice(-10)
    .map((r) => r.winRate);
  if (rates.length === 0) return 'medium';
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  return mean > 0.6 ? 'hard' : mean < 0.4 ? 'easy' : 'medium';
}

function verdictOf(report: ValidationReport): ValidationVerdict {
  const { ok, stage, code, message, className, repairedLines } = report;
  return { ok, stage, code, message, className, repairedLines };
}

/**
 * Designs one slot: up to `attemptsPerSlot` attempts, each with a fresh grounding document, the
 * skill's memory and a difficulty word; each reply is extracted, repaired and validated. With
 * repair mode on, the first failure is fed back once as a repair attempt.
 */
export async function designSlot(ctx: SlotContext): Promise<SlotDesign> {
  const { config } = ctx;
  const rng = createRng(deriveSeed(config.seed, ctx.envId, 'design'));
  const memory = config.useMemory ? selectMemory(ctx.memory, ctx.skill, rng) : null;
  const difficulty = chooseDifficulty(config, ctx.memory, ctx.skill);
  const pool = config.useCorpus ? docsForSkill(ctx.corpus, ctx.skill) : [];
  const attempts: DesignAttempt[] = [];
  let docId: string | null = null;
  let repairUsed = false;
  let previous: { messages: ChatMessage[]; reply: string; message: string } | null = null;
  while (attempts.length < config.attemptsPerSlot) {
    const attempt = attempts.length;
    const repair = config.repairMode && !repairUsed && previous !== null;
    let messages: ChatMessage[];
    if (repair && previous) {
      repairUsed = true;
      messages = buildRepairPrompt(previous.messages, previous.reply, previous.message, config.prompts);
    } else {
      const doc = pool.length > 0 ? pool[rng.int(pool.length)]! : null;
      docId = doc?.id ?? null;
      messages = buildDesignerPrompt(
        {
          skill: ctx.skill,
          skillDescription: Object.hasOwn(GAME_SKILLS, ctx.skill) ? GAME_SKILLS[ctx.skill]! : ctx.skill,
          document: doc ? truncateWords(doc.text, config.corpusWordBudget) : null,
          memory,
          difficulty,
          maxTurns: config.maxTurns,
        },
        config.prompts,
      );
    }
    ctx.onAttemptStart(attempt, docId, repair);
    const result = await ctx.model.complete({
      messages,
      ...config.designer,
      seed: deriveSeed(config.seed, ctx.envId, 'designer', attempt),
      purpose: repair ? 'repair' : 'designer',
      onToken: ctx.onToken,
    });
    const report = await validateEnvironment(result.text, ctx.sandbox, {
      maxTurns: config.maxTurns,
      totalTimeoutMs: config.validateTimeoutMs,
      callTimeoutMs: config.stepTimeoutMs,
      challenge: drawChallenge(deriveSeed(config.seed, ctx.envId, 'challenge', attempt)),
    });
    ctx.onValidated(attempt, report);
    const record: DesignAttempt = { attempt, repair, messages, reply: result.text, code: report.source, validation: verdictOf(report), usage: result.usage };
    attempts.push(record);
    if (report.ok) {
      return { attempts, valid: record, docId, difficulty, memoryShown: shown(memory) };
    }
    previous = { messages, reply: result.text, message: report.message ?? 'unknown failure' };
  }
  return { attempts, valid: null, docId, difficulty, memoryShown: shown(memory) };
}

function shown(memory: ReturnType<typeof selectMemory> | null): SlotDesign['memoryShown'] {
  return {
    positives: memory?.positives.map((p) => p.envId) ?? [],
    negative: memory?.negative?.record.envId ?? null,
  };
}
