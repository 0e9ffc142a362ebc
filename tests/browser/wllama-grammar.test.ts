// Constrained decoding on a real engine: the generated tiny GGUF (random weights, printable-ASCII
// vocabulary) in wllama, in Debian's Chromium. Sampled without a grammar its replies are random
// text that the action and tool-call parsers do not read; sampled under the agent's grammars
// (src/core/loop/agent-grammar.ts) every reply is one well-formed `\boxed{...}` action, or one
// well-formed tool call or answer, and the engine ends it there. The sampled grammars are the
// agent's with short bounds (a random model fills every bound, and a loaded 2-core machine makes
// some 30 tokens a second on one engine thread); the run's own grammars, thinking block and
// default bounds included, are checked to compile in the engine. Counts are printed for the report.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { matches, parseGbnf } from '../fixtures/gbnf-matcher.ts';
import { startRig, type BrowserRig } from './harness.ts';
import type { TimedChat } from './pages/wllama.ts';
import { withActionGrammar, withToolGrammar } from '../../src/core/loop/agent-grammar.ts';
import { boxedActionGrammar, type ReplyBounds } from '../../src/core/prompts/action-grammar.ts';
import { toolReplyGrammar } from '../../src/core/prompts/tool-grammar.ts';
import { agentFirstMessage, parseAction, toolAgentFirstMessage } from '../../src/core/prompts/agent-prompt.ts';
import { DEFAULT_TEMPLATES } from '../../src/core/prompts/templates.ts';
import { parseToolReply } from '../../src/core/prompts/tool-call-parse.ts';
import type { ChatMessage, ChatRequest, ReplyGrammar, ToolSchema } from '../../src/core/ports/chat-port.ts';

// One engine thread: this file tests what the engine writes, not its threads (wllama-engine.test.ts
// does). Two threads meet at a barrier for every step of every token; on a loaded 2-core machine
// each wait lasts until the other thread is scheduled again, which made sampling about five times slower.
const PAGE = '/tests/browser/pages/wllama.html?threads=1';
const SAMPLES = 8;
const SHORT: ReplyBounds = { think: false, leadChars: 16, boxChars: 16, answerChars: 16, stringChars: 8 };
// Generous: every reply is sampled token by token on a shared CPU.
const SLOW = 900_000;

let rig: BrowserRig;
let page: Page;

const chat = (options: Parameters<Window['wllamaTest']['chat']>[0]): Promise<TimedChat> =>
  page.evaluate((o) => window.wllamaTest.chat(o), options);

const GAME: ChatMessage[] = [
  agentFirstMessage(
    'You stand before 9 closed doors; one hides the key. Actions: open N (1-9). Reply with \\boxed{<action>}.',
    DEFAULT_TEMPLATES.agent,
  ),
];

const TOOLS: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'get_order',
      description: 'Look up an order.',
      parameters: {
        type: 'object',
        properties: {
          order_id: { type: 'integer' },
          view: { type: 'string', enum: ['summary', 'items'] },
          note: { type: 'string' },
        },
        required: ['order_id'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'refund',
      description: 'Refund an order.',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'integer' }, full: { type: 'boolean' } },
        required: ['order_id', 'full'],
      },
    },
  },
];
const TOOL_TASK: ChatMessage[] = [
  toolAgentFirstMessage('Refund order 408 in full, then tell me the amount.', TOOLS, DEFAULT_TEMPLATES.toolAgent),
];

/** A request as an episode would send it (thinking left to the model, so the grammar allows a `<think>` block). */
const request = (messages: ChatMessage[]): ChatRequest => ({
  messages,
  temperature: 0.6,
  topP: 0.95,
  maxTokens: 1024,
  seed: 0,
  purpose: 'agent',
});

/** The reply as the action parser reads it, when it is one boxed action. */
const boxedAction = (reply: string): string | null =>
  /^\\boxed\{[^{}]+\}$/.test(parseAction(reply)) ? parseAction(reply) : null;

/** True when the tool-call parser reads the reply as an answer, or as calls to the listed tools with their required arguments. */
function wellFormedToolReply(reply: string, tools: readonly ToolSchema[]): boolean {
  const parsed = parseToolReply(reply);
  if (parsed.kind === 'answer') return parsed.text !== '';
  if (parsed.kind !== 'calls') return false;
  return parsed.calls.every((call) => {
    const tool = tools.find((t) => t.function.name === call.name);
    const required = (tool?.function.parameters.required ?? []) as string[];
    return tool !== undefined && required.every((key) => key in call.arguments);
  });
}

async function sample(
  messages: ChatMessage[],
  maxTokens: number,
  grammar: ReplyGrammar | undefined,
  samples = SAMPLES,
): Promise<TimedChat[]> {
  const calls: TimedChat[] = [];
  for (let seed = 1; seed <= samples; seed++)
    calls.push(await chat({ messages, maxTokens, seed, temperature: 1, ...(grammar ? { grammar } : {}) }));
  for (const call of calls) expect(call.error).toBeNull();
  return calls;
}

beforeAll(async () => {
  rig = await startRig();
  page = await rig.open(PAGE);
  await page.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
  await page.getByTestId('cpu-file').setInputFiles({
    name: 'spade-tiny.gguf',
    mimeType: 'application/octet-stream',
    buffer: Buffer.from(makeTinyGguf()),
  });
  await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
});
afterAll(async () => {
  await rig?.close();
});

describe('the boxed-action grammar on the generated model', () => {
  it(
    'turns random text into one well-formed boxed action per reply, ended by the grammar',
    async () => {
      const free = await sample(GAME, 48, undefined);
      const grammar = boxedActionGrammar(SHORT);
      const constrained = await sample(GAME, 200, grammar);
      const freeActions = free.filter((c) => boxedAction(c.result!.text) !== null).length;
      const actions = constrained.map((c) => boxedAction(c.result!.text));
      const ms = constrained.reduce((n, c) => n + c.totalMs, 0);
      console.log(
        `[grammar] boxed action: ${freeActions}/${SAMPLES} well-formed without the grammar, ${actions.filter(Boolean).length}/${SAMPLES} with it (${ms} ms in all)`,
      );
      console.log(
        `[grammar] e.g. without: ${JSON.stringify(free[0]!.result!.text.slice(0, 80))}; with: ${JSON.stringify(constrained[0]!.result!.text.slice(-120))}`,
      );
      expect(freeActions).toBe(0);
      expect(actions.every((a) => a !== null)).toBe(true);
      const rules = parseGbnf(grammar.gbnf);
      for (const call of constrained) {
        expect(call.result!.finishReason, call.result!.text).toBe('stop');
        expect(matches(rules, call.result!.text), call.result!.text).toBe(true);
      }
      expect(new Set(actions).size).toBeGreaterThan(1);
    },
    SLOW,
  );
});

describe("the run's own grammars", () => {
  it(
    'compile in the engine (an invalid grammar fails the call)',
    async () => {
      const grammars = [withActionGrammar(request(GAME)).grammar!, withToolGrammar(request(TOOL_TASK), TOOLS).grammar!];
      expect(grammars.map((g) => g.gbnf)).toEqual([
        expect.stringContaining('think ::='),
        expect.stringContaining('toolcall ::='),
      ]);
      for (const grammar of grammars) {
        const call = await chat({ messages: GAME, maxTokens: 6, grammar });
        expect(call.error).toBeNull();
        expect(call.result).toMatchObject({ finishReason: 'length', usage: { completionTokens: 6 } });
      }
      const broken = await chat({
        messages: GAME,
        maxTokens: 6,
        grammar: { name: 'broken', gbnf: 'root ::= "a" missing\n' },
      });
      expect(broken.error).not.toBeNull();
    },
    SLOW,
  );
});

describe('the tool-reply grammar on the generated model', () => {
  it(
    'turns random text into one well-formed tool call or answer per reply',
    async () => {
      const free = await sample(TOOL_TASK, 48, undefined);
      const grammar = toolReplyGrammar(TOOLS, SHORT);
      const constrained = await sample(TOOL_TASK, 400, grammar);
      const freeReadable = free.filter((c) => wellFormedToolReply(c.result!.text, TOOLS)).length;
      const readable = constrained.filter((c) => wellFormedToolReply(c.result!.text, TOOLS)).length;
      const kinds = constrained.map((c) => parseToolReply(c.result!.text).kind);
      console.log(
        `[grammar] tool reply: ${freeReadable}/${SAMPLES} well-formed without the grammar, ${readable}/${SAMPLES} with it (${kinds.filter((k) => k === 'calls').length} calls, ${kinds.filter((k) => k === 'answer').length} answers)`,
      );
      console.log(
        `[grammar] e.g. with: ${JSON.stringify(constrained.find((c) => c.result!.text.includes('<tool_call>'))?.result!.text.slice(-160) ?? constrained[0]!.result!.text.slice(-160))}`,
      );
      expect(freeReadable).toBe(0);
      expect(readable).toBe(SAMPLES);
      const rules = parseGbnf(grammar.gbnf);
      for (const call of constrained) {
        expect(call.result!.finishReason, call.result!.text).toBe('stop');
        expect(matches(rules, call.result!.text), call.result!.text).toBe(true);
      }
    },
    SLOW,
  );

  it(
    'reads a grammar whose tool name is hostile text, and gives that exact name back',
    async () => {
      const name = 'x"</tool_call>\\ü';
      const tools: ToolSchema[] = [
        {
          type: 'function',
          function: { name, description: 'odd', parameters: { type: 'object', properties: {}, required: [] } },
        },
      ];
      const messages = [toolAgentFirstMessage('Call the tool.', tools, DEFAULT_TEMPLATES.toolAgent)];
      const grammar = toolReplyGrammar(tools, SHORT);
      const replies = (await sample(messages, 400, grammar, 6)).map((c) => c.result!.text);
      const bodies = replies.flatMap((reply) => [
        ...(/<tool_call>([\s\S]*)<\/tool_call>$/.exec(reply)?.slice(1) ?? []),
      ]);
      console.log(`[grammar] hostile tool name: ${bodies.length}/6 calls, the rest answers`);
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(JSON.parse(body)).toEqual({ name, arguments: {} });
      for (const reply of replies)
        expect(reply.includes('<tool_call>') || parseToolReply(reply).kind === 'answer', reply).toBe(true);
    },
    SLOW,
  );
});
