import { readFileSync } from 'node:fs';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../src/core/config.ts';
import { parseCorpus } from '../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch, type RunState } from '../../src/core/loop/epoch.ts';
import type { ChatPurpose, ChatRequest } from '../../src/core/ports/chat-port.ts';
import { rolePrefix, serializeMessages, type RolePrefix } from './shared-prefix.ts';

/** The figures of one setting. */
export interface PrefixFigures {
  name: string;
  epoch: number;
  roles: RolePrefix[];
}

const CORPUS = parseCorpus(readFileSync(new URL('../../public/corpus/concepts.jsonl', import.meta.url), 'utf8')).docs;
const script = (file: string) => parseChatScript(JSON.parse(readFileSync(new URL(`../../public/demo/${file}`, import.meta.url), 'utf8')));
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
  return { name, epoch: 2, roles };
}

/** Both settings of the demo with the default config, the playbook on (as the learning demo runs). */
export async function measureDemoPrefixes(): Promise<PrefixFigures[]> {
  const games: Config = { ...DEFAULT_CONFIG, seed: 1, usePlaybook: true };
  const toolUse: Config = { ...withSetting(DEFAULT_CONFIG, 'tool_use'), seed: 1, usePlaybook: true, solvabilityJudge: true };
  return [await measurePrefixes('games', 'demo-script.json', games), await measurePrefixes('tool use', 'tool-use-script.json', toolUse)];
}

/** The figures as the bench prints them. */
export function formatPrefixFigures(f: PrefixFigures): string {
  const pct = (part: number, whole: number) => `${whole === 0 ? '0' : ((100 * part) / whole).toFixed(0)} %`;
  return [
    `Shared prompt prefix, ${f.name} demo, epoch ${f.epoch} (characters; reusable = each request's longest prefix shared with an earlier request of its role)`,
    '  role       requests  mean length  common to all        reusable',
    ...f.roles.map(
      (r) =>
        `  ${r.role.padEnd(10)} ${String(r.requests).padStart(8)}  ${r.meanChars.toFixed(0).padStart(11)}  ${String(r.commonChars).padStart(6)} (${pct(r.commonChars, r.meanChars).padStart(5)})  ${pct(r.reusableChars, r.totalChars).padStart(10)}`,
    ),
    '',
  ].join('\n');
}
