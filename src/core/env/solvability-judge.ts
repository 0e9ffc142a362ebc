import type { ChatMessage, ChatModel, ChatUsage } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { stripThink } from './extract-code.ts';
import { completeThinking } from '../loop/complete-thinking.ts';
import { roleThinking } from '../thinking.ts';
import { envError, type EnvError } from './env-error.ts';
import { fillTemplate, type PromptTemplates } from '../prompts/templates.ts';

/** The judge's verdict: solvable, impossible, or no `\boxed{...}` verdict in the reply (which accepts, as in SPADE). */
export type JudgeVerdict = 'yes' | 'no' | null;

/** What the same-model solvability judge was asked and answered. */
export interface JudgeRecord {
  messages: ChatMessage[];
  reply: string;
  verdict: JudgeVerdict;
  /** Tokens the judge call spent (a designer-side call: counted in the epoch's tokens); absent in records written before it was kept. */
  usage?: ChatUsage;
}

/** The judge's messages: the run's judge template with the environment's code. */
export function buildJudgePrompt(code: string, templates: PromptTemplates): ChatMessage[] {
  return [{ role: 'user', content: fillTemplate(templates.judge, { code }) }];
}

/**
 * Reads the verdict of a judge reply: the last `\boxed{...}` after `<think>` blocks are removed;
 * yes, y or true (any case) is yes, any other boxed text is no, and no box at all is null.
 */
export function parseJudgeVerdict(reply: string): JudgeVerdict {
  const boxes = [...stripThink(reply).matchAll(/\\boxed\{([^{}]*)\}/g)];
  const last = boxes.at(-1)?.[1];
  if (last === undefined) return null;
  return ['yes', 'y', 'true'].includes(last.trim().toLowerCase()) ? 'yes' : 'no';
}

/** Asks the run's model whether a tool-use environment can be solved (low temperature, the hint's sampling with the designer's reply length and thinking). */
export async function judgeSolvability(
  model: ChatModel,
  code: string,
  config: Config,
  seed: number,
): Promise<JudgeRecord> {
  const messages = buildJudgePrompt(code, config.prompts);
  const request = {
    messages,
    temperature: config.hint.temperature,
    topP: config.hint.topP,
    maxTokens: config.designer.maxTokens,
    seed,
    purpose: 'judge' as const,
  };
  const reply = await completeThinking(model, request, roleThinking(config, 'designer'));
  return { messages, reply: reply.text, verdict: parseJudgeVerdict(reply.text), usage: reply.usage };
}

/** The rejection of an environment the judge called impossible, with the judge's own reasoning in what was seen. */
export function judgeRejection(record: JudgeRecord): EnvError {
  const reasoning = stripThink(record.reply).replace(/\s+/g, ' ').trim();
  return envError('judge_unsolvable', 'judge', {
    expected: 'the solvability judge to find a sequence of tool calls that makes every instruction criterion true',
    seen: `the verdict \\boxed{no}${reasoning ? `, reasoning: "${reasoning.length > 400 ? `${reasoning.slice(0, 400)}…` : reasoning}"` : ''}`,
    fix: 'make every criterion reachable: some tool must write each state value a criterion needs, with the same type, from values the instruction states or a tool returns; or switch the solvability judge off if it is wrong',
  });
}
