import type { ChatRequest, ChatResult, FinishReason } from '../../core/ports/chat-port.ts';
import { estimatePromptTokens, estimateTokens } from './token-estimate.ts';

/** Token counts a backend reported; a missing (null or undefined) count is estimated. */
export interface ReportedUsage {
  promptTokens?: number | null;
  completionTokens?: number | null;
}

/**
 * One streamed completion as the real backends (web-llm, wllama, OpenAI-compatible) build it:
 * the deltas joined into the text so far, each non-empty delta passed on to the request's
 * `onToken` and counted, the finish reason, and the result, whose usage is what the backend
 * reported or, where it reported nothing, the estimate (⌈characters / 4⌉, +4 per prompt message).
 */
export class StreamAccumulator {
  private textSoFar = '';
  private pieceCount = 0;
  /** Why the completion stopped: 'stop' until the backend says otherwise. */
  finish: FinishReason = 'stop';

  constructor(private readonly request: ChatRequest) {}

  /** The text streamed so far. */
  get text(): string {
    return this.textSoFar;
  }

  /** How many non-empty deltas have streamed. */
  get pieces(): number {
    return this.pieceCount;
  }

  /** Appends one streamed delta and passes it to `onToken`; an empty or missing delta is skipped. */
  add(delta: string | null | undefined): void {
    if (!delta) return;
    this.textSoFar += delta;
    this.pieceCount += 1;
    this.request.onToken?.(delta);
  }

  /** Reads a backend's `finish_reason`: 'length' (the token limit was reached) is kept; any other value changes nothing. */
  noteFinish(reason: unknown): void {
    if (reason === 'length') this.finish = 'length';
  }

  /** The completion so far: its text, the reported usage with estimates for what is missing, and `finishReason` (by default the one noted). */
  result(reported: ReportedUsage = {}, finishReason: FinishReason = this.finish): ChatResult {
    return {
      text: this.textSoFar,
      usage: {
        promptTokens: reported.promptTokens ?? estimatePromptTokens(this.request.messages),
        completionTokens: reported.completionTokens ?? estimateTokens(this.textSoFar),
      },
      finishReason,
    };
  }
}
