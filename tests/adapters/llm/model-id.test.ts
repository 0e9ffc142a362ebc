import { describe, expect, it } from 'vitest';
import {
  formatModelId,
  parseModelId,
  webllmModelId,
  wllamaModelId,
  type ModelId,
} from '../../../src/adapters/llm/model-id.ts';

describe('model ids', () => {
  it.each<[string, ModelId]>([
    ['webllm:Qwen3-4B-q4f16_1-MLC', { kind: 'webllm', model: 'Qwen3-4B-q4f16_1-MLC' }],
    ['wllama:qwen3-0.6b-q4_k_m.gguf', { kind: 'wllama', file: 'qwen3-0.6b-q4_k_m.gguf' }],
    [
      'openai:http://127.0.0.1:8080/v1#qwen3:4b',
      { kind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3:4b' },
    ],
    [
      'openai:https://example.org/v1#team/model#2',
      { kind: 'openai', baseUrl: 'https://example.org/v1', model: 'team/model#2' },
    ],
    ['scripted:spade-lab-demo', { kind: 'scripted', name: 'spade-lab-demo' }],
  ])('%s reads and writes back the same', (text, id) => {
    expect(parseModelId(text)).toEqual(id);
    expect(formatModelId(id)).toBe(text);
  });

  it.each([
    '',
    'webllm',
    'webllm:',
    ':x',
    'gpt:foo',
    'openai:http://h/v1',
    'openai:http://h/v1#',
    'openai:#model',
    'openai:ftp://h/v1#m',
    'openai:http://#m',
    'wllama:',
    'scripted:',
  ])('%j names no model', (text) => {
    expect(parseModelId(text)).toBeNull();
  });

  it('builds the ids the backends report', () => {
    expect(webllmModelId('Qwen3-1.7B-q4f32_1-MLC')).toBe('webllm:Qwen3-1.7B-q4f32_1-MLC');
    expect(wllamaModelId('model.gguf')).toBe('wllama:model.gguf');
  });
});
