/** Who a chat message is from. */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** One chat message. */
export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** Which SPADE role a model call serves (adapters may use it; scripted models choose replies by it). */
export type ChatPurpose = 'designer' | 'repair' | 'hint' | 'agent' | 'lesson' | 'judge';

/** The part of an AbortSignal the core relies on (the core has no DOM types). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** A tool the model may call, in the function-calling form (`ToolUseBaseEnv.get_tools()`). */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** One completion request. */
export interface ChatRequest {
  messages: ChatMessage[];
  /** Sampling temperature (0 = greedy). */
  temperature: number;
  /** Nucleus sampling mass in (0, 1]. */
  topP: number;
  /** Most tokens the reply may have. */
  maxTokens: number;
  /** Sampling seed; passed on every call so runs are reproducible where the backend allows. */
  seed: number;
  /** The SPADE role this call serves. */
  purpose: ChatPurpose;
  /** Aborts the call; the model must stay usable afterwards. */
  signal?: AbortSignalLike;
  /** Receives each streamed piece of text as it arrives. */
  onToken?: (delta: string) => void;
  /** Tool-use episodes: the tools, for backends with native tool calling (they return calls as `<tool_call>` text); the prompt describes them too. */
  tools?: ToolSchema[];
  /** Thinking for models that think by default (Qwen3's `enable_thinking`): true asks for it, false turns it off, absent leaves the backend's default. */
  thinking?: boolean;
  /** Constrained decoding: the reply must follow this grammar where the backend supports grammars (`ChatModel.grammars`); others ignore it. */
  grammar?: ReplyGrammar;
}

/** A grammar a reply must follow, in llama.cpp's GBNF (web-llm, wllama, llama.cpp and vLLM's xgrammar all read it). */
export interface ReplyGrammar {
  /** What it constrains, e.g. `boxed-action` or `tool-call`, for logs and records. */
  name: string;
  /** The grammar in GBNF, with a `root` rule. */
  gbnf: string;
}

/** Token counts of one completion. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
}

/** Why a completion stopped. */
export type FinishReason = 'stop' | 'length' | 'abort';

/** One completion. */
export interface ChatResult {
  text: string;
  usage: ChatUsage;
  finishReason: FinishReason;
}

/** A language model that completes chats. Knows nothing of SPADE beyond `purpose`. */
export interface ChatModel {
  /** Stable description, e.g. `scripted:demo.json` or `openai:http://127.0.0.1:8080#qwen3-4b`. */
  readonly id: string;
  /** How many calls it serves at once (absent: one); the run's `concurrency` is bounded by it. */
  readonly maxConcurrency?: number;
  complete(request: ChatRequest): Promise<ChatResult>;
  /** The context window in tokens (prompt plus reply) as the backend reports it (null: it does not say). */
  contextWindow?(signal?: AbortSignalLike): Promise<number | null>;
  /** Prompt tokens of a request as this model's tokenizer and chat template count them (absent: the core estimates). */
  countPromptTokens?(
    request: Pick<ChatRequest, 'messages' | 'tools' | 'thinking'>,
    signal?: AbortSignalLike,
  ): Promise<number>;
  /** Whether `complete` honours `ChatRequest.grammar`. */
  readonly grammars?: boolean;
  /** Plain data describing any internal position (scripted models), saved with each epoch so a resumed run continues identically. */
  snapshot?(): unknown;
  /** Restores what `snapshot` returned. */
  restore?(snapshot: unknown): void;
}

/** Stable codes of model failures. */
export type ChatErrorCode =
  'unreachable' | 'http_error' | 'bad_response' | 'timeout' | 'aborted' | 'context_length' | 'no_script_match';

/** A model call that failed; the message says what happened and what to do next. */
export class ChatModelError extends Error {
  override readonly name = 'ChatModelError';
  constructor(
    readonly code: ChatErrorCode,
    message: string,
  ) {
    super(message);
  }
}
