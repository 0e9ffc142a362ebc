import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChatModel } from '../core/ports/chat-port.ts';
import { OpenAIChatModel } from '../adapters/llm/openai/openai-chat-model.ts';
import { GRAMMAR_SERVERS, isGrammarServer, type GrammarServer } from '../adapters/llm/openai/openai-grammar.ts';
import { parseChatScript } from '../adapters/llm/scripted/scripted-chat-model.ts';
import { scriptedModel } from '../adapters/llm/scripted/scripted-learner.ts';
import { parseModelId } from '../adapters/llm/model-id.ts';
import { bundledScriptOf } from '../adapters/llm/scripted/bundled-scripts.ts';
import { integerOption, UsageError } from './args.ts';
import { errorMessage } from '../core/error-message.ts';

/** The window `--context-window` gives an OpenAI-compatible server (undefined: ask the server); refused below 256 tokens and for other models. */
export function contextWindowOption(value: unknown, spec: string): number | undefined {
  if (value === undefined) return undefined;
  const window = integerOption(value, 'context-window', 0);
  if (window < 256)
    throw new UsageError(
      `--context-window needs the server's context in tokens (at least 256), got ${JSON.stringify(value)}`,
    );
  if (!spec.startsWith('openai:'))
    throw new UsageError('--context-window applies to an openai:URL#MODEL server (scripted models have no context)');
  return window;
}

/** The server family `OPENAI_GRAMMAR` names (unset or empty: none); anything else is a usage error. */
export function grammarServerOf(value: string | undefined): { grammarServer?: GrammarServer } {
  if (value === undefined || value === '') return {};
  if (!isGrammarServer(value))
    throw new UsageError(
      `OPENAI_GRAMMAR must be one of ${GRAMMAR_SERVERS.join(', ')} (how the server takes a grammar), got ${JSON.stringify(value)}`,
    );
  return { grammarServer: value };
}

/** The app's public folder, where the bundled demo scripts live. */
const PUBLIC_DIR = fileURLToPath(new URL('../../public/', import.meta.url));

/** A recorded bundled demo session rebuilt from the app's own script, under its recorded id (so its saved script position restores), and the file it read; null for any other model id. */
export async function bundledModel(modelId: string): Promise<{ model: ChatModel; file: string } | null> {
  const bundled = bundledScriptOf(modelId);
  const id = parseModelId(modelId);
  if (!bundled || id?.kind !== 'scripted') return null;
  const file = join(PUBLIC_DIR, bundled);
  return { model: scriptedModel(parseChatScript(JSON.parse(await readFile(file, 'utf8'))), id.name), file };
}

/** Builds the model named by `scripted:FILE` or `openai:URL#MODEL`; `contextWindow` is an OpenAI-compatible server's window as the user gives it; the server takes grammars when `OPENAI_GRAMMAR` names its family. */
export async function modelFromSpec(spec: string, contextWindow?: number): Promise<ChatModel> {
  if (spec.startsWith('scripted:')) {
    const file = spec.slice('scripted:'.length);
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read the chat script ${file}: ${errorMessage(error)}`);
    }
    try {
      return scriptedModel(parseChatScript(parsed), basename(file));
    } catch (error) {
      throw new UsageError(`the chat script ${file} is not usable: ${errorMessage(error)}`);
    }
  }
  if (spec.startsWith('openai:')) {
    const id = parseModelId(spec);
    if (id?.kind !== 'openai')
      throw new UsageError(
        `--model openai:URL#MODEL needs an http(s) URL and a model name after #, got ${JSON.stringify(spec)}`,
      );
    return new OpenAIChatModel({
      baseUrl: id.baseUrl,
      model: id.model,
      ...(process.env.OPENAI_API_KEY ? { apiKey: process.env.OPENAI_API_KEY } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...grammarServerOf(process.env.OPENAI_GRAMMAR),
    });
  }
  throw new UsageError(`--model must be scripted:FILE or openai:URL#MODEL, got ${JSON.stringify(spec)}`);
}
