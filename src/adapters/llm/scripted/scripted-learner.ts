import type { ChatModel, ChatRequest, ChatResult } from '../../../core/ports/chat-port.ts';
import { PLAYBOOK_HEADING } from '../../../core/prompts/agent-prompt.ts';
import { ScriptedChatModel, type ChatScript, type ScriptedModelOptions } from './scripted-chat-model.ts';
import { policyForObservation, type SuitePolicy } from './suite-policies.ts';

/** Where the default agent template's instructions start after the observation. */
const TEMPLATE_TAIL = '\nPlease reason step by step';

/** The suite policy of the game an agent request plays, and the observations so far; null for other games. */
function suiteGame(request: ChatRequest): { policy: SuitePolicy; observations: string[] } | null {
  if (request.purpose !== 'agent') return null;
  const [first, ...rest] = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
  if (first === undefined) return null;
  for (const title of first.matchAll(/\[[^\]\n]+\]/g)) {
    const policy = policyForObservation(first.slice(title.index));
    if (!policy) continue;
    const tail = first.indexOf(TEMPLATE_TAIL, title.index);
    return { policy, observations: [first.slice(title.index, tail < 0 ? undefined : tail), ...rest] };
  }
  return null;
}

/**
 * The scripted learner's reply to a held-out suite game: the winning line when the prompt opens
 * with a playbook block (which holds lessons of this game's skill only), else the losing line.
 */
function learnerReply(request: ChatRequest): string | undefined {
  const game = suiteGame(request);
  if (!game) return undefined;
  const helped = request.messages[0]?.content.startsWith(PLAYBOOK_HEADING) ?? false;
  try {
    const action = (helped ? game.policy.win : game.policy.lose)(game.observations);
    return helped
      ? `My playbook has a lesson for ${game.policy.skill}; following it, I choose ${action}.`
      : `I go with my first idea: ${action}.`;
  } catch {
    return 'I cannot read this situation; I give up.';
  }
}

/**
 * A labelled scripted learner (a test double and a classroom illustration, never evidence that a
 * model learns): held-out suite games are played by their scripted winning line only when the
 * agent prompt carries a playbook lesson for the game's skill, and by a losing line otherwise;
 * every other request is answered by the wrapped script. Its id, snapshot and restore are the script's.
 */
export class ScriptedLearnerModel implements ChatModel {
  readonly id: string;

  constructor(
    private readonly script: ScriptedChatModel,
    private readonly pieceDelayMs: number | (() => number) = 0,
  ) {
    this.id = script.id;
  }

  /** The wrapped script's: held-out replies depend on the request alone. */
  get maxConcurrency(): number {
    return this.script.maxConcurrency;
  }

  /** The wrapped script's window. */
  contextWindow(): Promise<number | null> {
    return this.script.contextWindow();
  }

  snapshot(): Record<string, number> {
    return this.script.snapshot();
  }

  restore(snapshot: unknown): void {
    this.script.restore(snapshot);
  }

  /** A held-out game's reply streams at the script's pace; anything else is the script's. */
  complete(request: ChatRequest): Promise<ChatResult> {
    const reply = learnerReply(request);
    return reply === undefined
      ? this.script.complete(request)
      : new ScriptedChatModel(() => reply, 'learner', this.pieceDelayMs, this.script.options).complete(request);
  }
}

/** The model a chat script asks for: a ScriptedLearnerModel when the script says `"learner": true`, else a plain ScriptedChatModel. */
export function scriptedModel(
  script: ChatScript,
  name?: string,
  pieceDelayMs: number | (() => number) = 0,
  options: ScriptedModelOptions = {},
): ChatModel {
  const model = new ScriptedChatModel(script, name ?? script.name ?? 'script', pieceDelayMs, options);
  return script.learner ? new ScriptedLearnerModel(model, pieceDelayMs) : model;
}
