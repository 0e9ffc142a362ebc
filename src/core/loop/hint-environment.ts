import type { ChatModel, ChatUsage } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import type { SpadeEvent } from './events.ts';
import { buildHintPrompt, HINT_ATTEMPTS, parseHint } from '../prompts/hint-prompt.ts';
import { deriveSeed } from './random.ts';
import { completeThinking } from './complete-thinking.ts';
import { roleThinking } from '../thinking.ts';
import type { EnvironmentRecord } from '../records.ts';
import { environmentSetting } from '../skills.ts';

/** What hinting one environment produced: the hint (null when none was usable) and why not. */
export interface HintOutcome {
  hint: string | null;
  messages: EnvironmentRecord['hintMessages'];
  reply: string;
  /** Requests made (1 to HINT_ATTEMPTS). */
  attempts: number;
  /** Why there is no hint arm; null when a hint came. */
  note: string | null;
  /** Tokens of every request made. */
  usage: ChatUsage;
}

/**
 * Asks for a hint as SPADE does: an unusable reply (empty; with reply aids also think-only) is retried, up to HINT_ATTEMPTS
 * requests on fresh seeds; when none is usable the environment is played without a hint arm.
 */
export async function hintEnvironment(
  env: EnvironmentRecord,
  model: ChatModel,
  config: Config,
  emit: (event: SpadeEvent) => void,
): Promise<HintOutcome> {
  const messages = buildHintPrompt(env.code, config.prompts, environmentSetting(env, config.setting));
  let reply = '';
  const usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  for (let attempt = 0; attempt < HINT_ATTEMPTS; attempt++) {
    const result = await completeThinking(
      model,
      {
        messages,
        ...config.hint,
        seed:
          attempt === 0 ? deriveSeed(config.seed, env.id, 'hint') : deriveSeed(config.seed, env.id, 'hint', attempt),
        purpose: 'hint',
        onToken: (delta) =>
          emit({ type: 'token', epoch: env.epoch, source: { purpose: 'hint', slot: env.slot, envId: env.id }, delta }),
      },
      roleThinking(config, 'hint'),
    );
    reply = result.text;
    usage.promptTokens += result.usage.promptTokens;
    usage.completionTokens += result.usage.completionTokens;
    const hint = parseHint(reply, config.replyAids);
    if (hint !== null) return { hint, messages, reply, attempts: attempt + 1, note: null, usage };
  }
  const note = `No usable hint after ${HINT_ATTEMPTS} requests (each reply was empty${config.replyAids ? ' or only a <think> block' : ''}), so the hint arm was not played and regret is 0.`;
  return { hint: null, messages, reply, attempts: HINT_ATTEMPTS, note, usage };
}
