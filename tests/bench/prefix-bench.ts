import { readFileSync } from 'node:fs';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, MAX_VALIDATE_TIMEOUT_MS, withSetting, type Config } from '../../src/core/config.ts';
import { docsForSkill, parseCorpus, truncateWords } from '../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, planSlots, runEpoch, type RunState } from '../../src/core/loop/epoch.ts';
import { buildDesignerPrompt } from '../../src/core/prompts/designer-prompt.ts';
import { skillDescription, TOOL_USE_DOMAINS } from '../../src/core/skills.ts';
import type { ChatPurpose, ChatRequest } from '../../src/core/ports/chat-port.ts';
import { rolePrefix, serializeMessages, type RolePrefix } from './shared-prefix.ts';

/** The figures of one setting. */
export interface PrefixFigures {
  name: string;
  epoch: number;
  roles: RolePrefix[];
}

const CORPUS = parseCorpus(readFileSync(new URL('../../public/corpus/concepts.jsonl', import.meta.url), 'utf8')).docs;
const script = (file: string) =>
  parseChatScript(JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')));
const ROLES: ChatPurpose[] = ['designer', 'repair', 'hint', 'judge', 'agent', 'lesson'];

/**
 * Two epochs of a demo session (its scripted model, the real Node sandbox, the demo's playbook on)
 * with every request recorded; the figures are the second epoch's, where memory and lessons are in play.
 */
export async function measurePrefixes(name: string, scriptFile: string, config: Config): Promise<PrefixFigures> {
  const sandbox = createNodeSandboxRuntime();
  const scripted = new ScriptedChatModel(script(scriptFile));
  let sent: ChatRequest[] = [];
  const model = { id: scripted.id, complete: (r: ChatRequest) => (sent.push(r), scripted.complete(r)) };
  let state: RunState = INITIAL_RUN_STATE;
  try {
    for (let i = 0; i < 2; i++) {
      sent = [];
      state = (await runEpoch({ model, sandbox, corpus: CORPUS }, state, config)).nextState;
    }
  } finally {
    await sandbox.close();
  }
  const roles = ROLES.map((role) =>
    rolePrefix(
      role,
      sent.filter((r) => r.purpose === role).map((r) => serializeMessages(r.messages)),
    ),
  ).filter((r) => r.requests > 0);
  return { name, epoch: 2, roles: [...roles, mixedDifficultyDesigns(config, 1)] };
}

/**
 * The designer prompts of an epoch's planned slots, built directly, with the difficulty words
 * cycling easy, medium, hard (as adaptive difficulty gives skills different words once they have
 * a history), a grounding document each and no memory.
 */
export function mixedDifficultyDesigns(config: Config, epoch: number): RolePrefix {
  const words = ['easy', 'medium', 'hard'] as const;
  const prompts = planSlots(config, epoch).map(({ slot, skill }) => {
    const docs = docsForSkill(CORPUS, skill);
    const doc = docs[slot % docs.length];
    const input = {
      skill,
      skillDescription: skillDescription(skill),
      document: doc ? truncateWords(doc.text, config.corpusWordBudget) : null,
      memory: null,
      difficulty: words[slot % words.length]!,
      maxTurns: config.maxTurns,
      ...(config.setting === 'tool_use' ? { domain: TOOL_USE_DOMAINS[slot % TOOL_USE_DOMAINS.length]! } : {}),
    };
    return serializeMessages(buildDesignerPrompt(input, config.prompts));
  });
  return rolePrefix('designer, mixed difficulty (built)', prompts);
}

/** Both settings of the demo with the default config, the playbook on (as the learning demo runs). */
export async function measureDemoPrefixes(): Promise<PrefixFigures[]> {
  // Roomy limits: on a loaded machine a timed-out validation would add a retry and change the requests.
  const limits = { validateTimeoutMs: MAX_VALIDATE_TIMEOUT_MS, stepTimeoutMs: 10_000 };
  const games: Config = { ...DEFAULT_CONFIG, seed: 1, usePlaybook: true, ...limits };
  const toolUse: Config = {
    ...withSetting(DEFAULT_CONFIG, 'tool_use'),
    seed: 1,
    usePlaybook: true,
    solvabilityJudge: true,
    ...limits,
  };
  return [
    await measurePrefixes('games', 'demo-script.json', games),
    await measurePrefixes('tool use', 'tool-use-script.json', toolUse),
  ];
}

/** The figures as the bench prints them. */
export function formatPrefixFigures(f: PrefixFigures): string {
  const pct = (part: number, whole: number) => `${whole === 0 ? '0' : ((100 * part) / whole).toFixed(0)} %`;
  return [
    `Shared prompt prefix, ${f.name} demo, epoch ${f.epoch} (characters; reusable = each request's longest prefix shared with an earlier request of its role)`,
    `  ${'role'.padEnd(36)} requests  mean length  common to all        reusable`,
    ...f.roles.map(
      (r) =>
        `  ${r.role.padEnd(36)} ${String(r.requests).padStart(8)}  ${r.meanChars.toFixed(0).padStart(11)}  ${String(r.commonChars).padStart(6)} (${pct(r.commonChars, r.meanChars).padStart(5)})  ${pct(r.reusableChars, r.totalChars).padStart(10)}`,
    ),
    '',
  ].join('\n');
}
