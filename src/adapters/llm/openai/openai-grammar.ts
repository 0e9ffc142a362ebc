import type { ReplyGrammar } from '../../../core/ports/chat-port.ts';
import type { Json } from './openai-errors.ts';

/** The server families whose request field for a GBNF grammar the model knows (docs/method.md section 4). */
export const GRAMMAR_SERVERS = ['llama.cpp', 'vllm', 'vllm-guided', 'sglang'] as const;

/** A server family that takes a GBNF grammar, named by the `grammarServer` option (the CLI's `OPENAI_GRAMMAR`). */
export type GrammarServer = (typeof GRAMMAR_SERVERS)[number];

/** True for a name in GRAMMAR_SERVERS. */
export function isGrammarServer(name: string): name is GrammarServer {
  return (GRAMMAR_SERVERS as readonly string[]).includes(name);
}

/**
 * The request fields that carry a grammar to a server of that family: llama.cpp's server
 * `grammar`; vLLM `structured_outputs.grammar` (the only form since 0.12); vLLM before 0.12
 * `guided_grammar`; SGLang `ebnf` (its xgrammar backend reads GBNF).
 */
export function grammarFields(grammar: ReplyGrammar, server: GrammarServer): Json {
  switch (server) {
    case 'llama.cpp':
      return { grammar: grammar.gbnf };
    case 'vllm':
      return { structured_outputs: { grammar: grammar.gbnf } };
    case 'vllm-guided':
      return { guided_grammar: grammar.gbnf };
    case 'sglang':
      return { ebnf: grammar.gbnf };
  }
}
