import {
  ChatModelError,
  type ChatModel,
  type ChatPurpose,
  type ChatRequest,
  type ChatResult,
} from '../../../core/ports/chat-port.ts';
import { formatModelId } from '../model-id.ts';
import { estimateTokens } from '../token-estimate.ts';

/** One rule of a chat script: when it applies, and what it replies. */
export interface ScriptRule {
  /** Purposes the rule answers; any purpose when absent. */
  purpose?: ChatPurpose | ChatPurpose[];
  /** Regular expression (JavaScript syntax) the searched text must match; matches anything when absent. */
  match?: string;
  /** Search the last user or tool message (`last`, default) or the whole conversation (`all`). */
  in?: 'last' | 'all';
  /** Replies used in turn, one per firing of this rule (the last repeats); `$1`.. insert capture groups. */
  replies: string[];
}

/** A chat script: rules tried in order, the first match replies. */
export interface ChatScript {
  name?: string;
  rules: ScriptRule[];
  /** Play held-out suite games as the labelled scripted learner (see scripted-learner.ts). */
  learner?: boolean;
}

/** Options of {@link ScriptedChatModel}. */
export interface ScriptedModelOptions {
  /** A context window in tokens, reported by `contextWindow()` and enforced as a server does (prompt tokens as `usage` counts them, plus `maxTokens`); none by default. */
  contextWindow?: number;
}

/** A script as a function: returns the reply, or undefined when it has none. */
export type ScriptFunction = (request: ChatRequest) => string | undefined;

/** Checks that a parsed JSON value is a usable chat script; throws with the exact problem. */
export function parseChatScript(value: unknown): ChatScript {
  const rules = (value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules) || rules.length === 0) throw new Error('a chat script needs a non-empty "rules" array');
  const learner = (value as { learner?: unknown }).learner;
  if (learner !== undefined && typeof learner !== 'boolean') throw new Error('"learner" must be true or false');
  rules.forEach((rule: unknown, i) => {
    const r = rule as Partial<ScriptRule> | null;
    if (!r || !Array.isArray(r.replies) || r.replies.length === 0 || !r.replies.every((x) => typeof x === 'string')) {
      throw new Error(`rule ${i} needs "replies": a non-empty array of strings`);
    }
    if (r.match !== undefined) {
      try {
        new RegExp(r.match);
      } catch {
        throw new Error(`rule ${i} has an invalid "match" regular expression`);
      }
    }
  });
  return value as ChatScript;
}

/** Prompt tokens as scripted models count them: the shared estimate, message by message. */
function promptTokensOf(request: ChatRequest): number {
  return request.messages.reduce((n, m) => n + estimateTokens(m.content), 0);
}

function searchedText(request: ChatRequest, where: 'last' | 'all'): string {
  if (where === 'all') return request.messages.map((m) => m.content).join('\n');
  const users = request.messages.filter((m) => m.role === 'user' || m.role === 'tool');
  return users[users.length - 1]?.content ?? '';
}

/**
 * A deterministic ChatModel for tests and the labelled demo: replies come from a script chosen by
 * purpose and content, streamed word by word. Not a stand-in for a real model anywhere else.
 */
export class ScriptedChatModel implements ChatModel {
  readonly id: string;
  private readonly fired = new Map<number, number>();

  constructor(
    private readonly script: ChatScript | ScriptFunction,
    name = typeof script === 'function' ? 'function' : (script.name ?? 'script'),
    /** Pause between streamed pieces, in milliseconds, or a function read before each piece (the demo's speed control). */
    private readonly pieceDelayMs: number | (() => number) = 0,
    /** The window option (read by the scripted learner, which answers held-out games itself). */
    readonly options: ScriptedModelOptions = {},
  ) {
    this.id = formatModelId({ kind: 'scripted', name });
  }

  /** The window given in the options, or null (none: requests of any length are answered). */
  contextWindow(): Promise<number | null> {
    return Promise.resolve(this.options.contextWindow ?? null);
  }

  /**
   * A function script, or rules with one reply each, answers a request the same whatever came
   * before, so it serves any number of calls at once; a rule with replies used in turn depends on
   * the order of calls, so such a script takes one call at a time (the schedule's fixed order).
   */
  get maxConcurrency(): number {
    return typeof this.script === 'function' || this.script.rules.every((rule) => rule.replies.length === 1)
      ? Number.POSITIVE_INFINITY
      : 1;
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.fired);
  }

  restore(snapshot: unknown): void {
    this.fired.clear();
    if (typeof snapshot !== 'object' || snapshot === null) return;
    for (const [rule, count] of Object.entries(snapshot)) {
      if (Number.isInteger(Number(rule)) && Number.isInteger(count)) this.fired.set(Number(rule), count as number);
    }
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    this.checkWindow(request);
    const text = this.reply(request);
    let streamed = '';
    for (const piece of text.match(/\s*\S+|\s+$/g) ?? []) {
      if (request.signal?.aborted) return this.result(request, streamed, 'abort');
      streamed += piece;
      request.onToken?.(piece);
      const delay = typeof this.pieceDelayMs === 'function' ? this.pieceDelayMs() : this.pieceDelayMs;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    }
    return this.result(request, text, 'stop');
  }

  /** Refuses a request longer than the window, as vLLM or llama.cpp refuse one over their context length. */
  private checkWindow(request: ChatRequest): void {
    const window = this.options.contextWindow;
    if (window === undefined) return;
    const promptTokens = promptTokensOf(request);
    if (promptTokens + request.maxTokens > window)
      throw new ChatModelError(
        'context_length',
        `${this.id} holds ${window} tokens; this ${request.purpose} request asks for ${promptTokens} prompt tokens plus maxTokens ${request.maxTokens}. Shorten the prompt or lower maxTokens.`,
      );
  }

  /** Usage as the shared estimate, but the prompt counted message by message (no framing tokens): runs recorded with scripted models keep these numbers. */
  private result(request: ChatRequest, text: string, finishReason: ChatResult['finishReason']): ChatResult {
    return {
      text,
      usage: { promptTokens: promptTokensOf(request), completionTokens: estimateTokens(text) },
      finishReason,
    };
  }

  private reply(request: ChatRequest): string {
    if (typeof this.script === 'function') {
      const text = this.script(request);
      if (text !== undefined) return text;
    } else {
      for (const [index, rule] of this.script.rules.entries()) {
        const purposes = rule.purpose === undefined ? null : [rule.purpose].flat();
        if (purposes && !purposes.includes(request.purpose)) continue;
        const match = new RegExp(rule.match ?? '').exec(searchedText(request, rule.in ?? 'last'));
        if (!match) continue;
        const count = this.fired.get(index) ?? 0;
        this.fired.set(index, count + 1);
        const template = rule.replies[Math.min(count, rule.replies.length - 1)]!;
        return template.replace(/\$(\d)/g, (_, group: string) => match[Number(group)] ?? '');
      }
    }
    const last = request.messages[request.messages.length - 1]?.content ?? '';
    throw new ChatModelError(
      'no_script_match',
      `The script ${this.id} has no reply for a ${request.purpose} request ending with ${JSON.stringify(last.slice(-120))}. Add a rule for it.`,
    );
  }
}
