import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { skillDescription, TOOL_USE_DOMAINS } from '../skills.ts';
import { docsForSkill, truncateWords, type CorpusDoc } from './corpus.ts';
import { drawChallenge, validateEnvironment, validationCallCap, type ValidationReport } from '../env/validate-env.ts';
import type { EnvError } from '../env/env-error.ts';
import { judgeRejection, judgeSolvability } from '../env/solvability-judge.ts';
import { selectMemory, type MemoryRecord, type MemorySelection } from './memory.ts';
import { designerLadder, repairLadder } from '../prompts/designer-ladder.ts';
import type { PromptLadder } from '../budget/fit-request.ts';
import { createRng, deriveSeed, type Rng } from './random.ts';
import { TOOL_TASK_ROTATION, type ToolTaskVariant } from '../prompts/tool-task-variants.ts';
import { completeFitted } from './complete-thinking.ts';
import { roleThinking } from '../thinking.ts';
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
  /** The attempt's reply is complete; its validation (in the sandbox) starts now. */
  onReplied?(attempt: number): void;
  onValidated(attempt: number, report: ValidationReport): void;
}

/** A designed slot: every attempt, and the valid one if any. */
export interface SlotDesign {
  attempts: DesignAttempt[];
  valid: DesignAttempt | null;
  docId: string | null;
  difficulty: 'easy' | 'medium' | 'hard';
  memoryShown: { positives: string[]; negative: string | null };
  /** The everyday domain a tool-use slot's task is set in; absent for a cognitive game. */
  domain?: string;
}

/** The domain of a tool-use slot: one of TOOL_USE_DOMAINS, drawn from the run's seed and the slot's environment id. */
export function slotDomain(seed: number, envId: string): string {
  return TOOL_USE_DOMAINS[createRng(deriveSeed(seed, envId, 'domain')).int(TOOL_USE_DOMAINS.length)]!;
}

/** Whether a slot's validation runs the reset gate: always with the tab's extra checks; else as the reference, in tool-use runs from the second epoch on. */
export function runsResetGate(config: Config, epoch: number): boolean {
  return config.extraToolChecks || (config.setting === 'tool_use' && epoch > 0);
}

/** A tool-use slot's task variant, drawn from the run seed and the slot's id (TOOL_TASK_ROTATION's weights). */
export function slotTaskVariant(seed: number, envId: string): ToolTaskVariant {
  return TOOL_TASK_ROTATION[createRng(deriveSeed(seed, envId, 'task variant')).int(TOOL_TASK_ROTATION.length)]!;
}

/** The random number generator of a slot's design: its memory selection draws first, then the grounding text of each attempt. */
export function designRng(seed: number, envId: string): Rng {
  return createRng(deriveSeed(seed, envId, 'design'));
}

/** What a slot's designer prompts show from memory (the same for every attempt): drawn first from `rng`, the slot's design generator (designRng); null with memory off. */
export function slotMemory(
  config: Config,
  memory: readonly MemoryRecord[],
  skill: string,
  rng: Rng,
): MemorySelection | null {
  return config.useMemory ? selectMemory(memory, skill, rng) : null;
}

/** The difficulty word: fixed, or (adaptive) from the skill's remembered win rates. */
export function chooseDifficulty(
  config: Config,
  memory: readonly MemoryRecord[],
  skill: string,
): 'easy' | 'medium' | 'hard' {
  if (config.difficulty !== 'adaptive') return config.difficulty;
  const rates = memory
    .filter((r) => r.skill === skill)
    .slice(-10)
    .map((r) => r.winRate);
  if (rates.length === 0) return 'medium';
  const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
  return mean > 0.6 ? 'hard' : mean < 0.4 ? 'easy' : 'medium';
}

// A passing validation report turned into the judge's rejection.
function judgedReport(report: ValidationReport, rejection: EnvError): ValidationReport {
  return {
    ...report,
    ok: false,
    stage: rejection.stage,
    code: rejection.code,
    message: rejection.message,
    stages: [...report.stages, { stage: 'judge', ok: false, ms: 0 }],
  };
}

function verdictOf(report: ValidationReport): ValidationVerdict {
  const { ok, stage, code, message, className, repairedLines } = report;
  return { ok, stage, code, message, className, repairedLines, ...(report.toolUse ? { toolUse: true as const } : {}) };
}

/**
 * Designs one slot: up to `attemptsPerSlot` attempts, each with a fresh grounding document, the
 * skill's memory and a difficulty word; each reply is extracted, repaired and validated. With
 * repair mode on, the first failure is fed back once as a repair attempt.
 */
export async function designSlot(ctx: SlotContext): Promise<SlotDesign> {
  const { config } = ctx;
  const rng = designRng(config.seed, ctx.envId);
  const memory = slotMemory(config, ctx.memory, ctx.skill, rng);
  const difficulty = chooseDifficulty(config, ctx.memory, ctx.skill);
  const pool = config.useCorpus ? docsForSkill(ctx.corpus, ctx.skill) : [];
  const domain = config.setting === 'tool_use' ? slotDomain(config.seed, ctx.envId) : undefined;
  const taskVariant = config.setting === 'tool_use' ? slotTaskVariant(config.seed, ctx.envId) : undefined;
  const slotFacts = { difficulty, ...(domain !== undefined ? { domain } : {}) };
  const attempts: DesignAttempt[] = [];
  let docId: string | null = null;
  let repairUsed = false;
  let previous: { ladder: PromptLadder; reply: string; message: string } | null = null;
  while (attempts.length < config.attemptsPerSlot) {
    const attempt = attempts.length;
    const repair = config.repairMode && !repairUsed && previous !== null;
    let designer: PromptLadder;
    let ladder: PromptLadder;
    if (repair && previous) {
      repairUsed = true;
      designer = previous.ladder;
      ladder = repairLadder(previous.ladder, previous.reply, previous.message, config.prompts);
    } else {
      const doc = pool.length > 0 ? pool[rng.int(pool.length)]! : null;
      docId = doc?.id ?? null;
      designer = designerLadder(
        {
          skill: ctx.skill,
          skillDescription: skillDescription(ctx.skill),
          document: doc ? truncateWords(doc.text, config.corpusWordBudget) : null,
          memory,
          difficulty,
          maxTurns: config.maxTurns,
          freeToolCalls: config.freeToolCalls,
          ...(domain !== undefined ? { domain } : {}),
          ...(taskVariant !== undefined ? { taskVariant } : {}),
        },
        config.prompts,
      );
      ladder = designer;
    }
    const purpose = repair ? 'repair' : 'designer';
    ctx.onAttemptStart(attempt, docId, repair);
    const result = await completeFitted(
      ctx.model,
      {
        ...config.designer,
        seed: deriveSeed(config.seed, ctx.envId, 'designer', attempt),
        purpose,
        onToken: ctx.onToken,
      },
      ladder,
      roleThinking(config, 'designer'),
    );
    ctx.onReplied?.(attempt);
    const validated = await validateEnvironment(result.text, ctx.sandbox, {
      maxTurns: config.maxTurns,
      totalTimeoutMs: config.validateTimeoutMs,
      callTimeoutMs: validationCallCap(config.validateTimeoutMs, config.stepTimeoutMs),
      challenge: drawChallenge(deriveSeed(config.seed, ctx.envId, 'challenge', attempt)),
      requireToolUse: config.setting === 'tool_use',
      toolBaseAids: config.toolBaseAids,
      lenientExtraction: config.replyAids,
      extraToolChecks: config.extraToolChecks,
      resetGate: runsResetGate(config, ctx.epoch),
      stoppedAtLimit: result.finishReason === 'length',
    });
    const judged =
      validated.ok && config.setting === 'tool_use' && config.solvabilityJudge
        ? await judgeSolvability(
            ctx.model,
            validated.source,
            config,
            deriveSeed(config.seed, ctx.envId, 'judge', attempt),
          )
        : null;
    const report = judged?.verdict === 'no' ? judgedReport(validated, judgeRejection(judged)) : validated;
    ctx.onValidated(attempt, report);
    const record: DesignAttempt = {
      attempt,
      repair,
      messages: result.messages,
      reply: result.text,
      code: report.source,
      validation: verdictOf(report),
      usage: result.usage,
      ...(judged ? { judge: judged } : {}),
    };
    attempts.push(record);
    if (report.ok) {
      return { attempts, valid: record, docId, ...slotFacts, memoryShown: shown(memory) };
    }
    previous = { ladder: designer, reply: result.text, message: report.message ?? 'unknown failure' };
  }
  return { attempts, valid: null, docId, ...slotFacts, memoryShown: shown(memory) };
}

function shown(memory: MemorySelection | null): SlotDesign['memoryShown'] {
  return {
    positives: memory?.positives.map((p) => p.envId) ?? [],
    negative: memory?.negative?.record.envId ?? null,
  };
}
