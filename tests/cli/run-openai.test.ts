import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { FakeOpenAIServer, jsonReply, scriptedResponder } from '../adapters/llm/openai/fake-openai-server.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SCRIPT = parseChatScript(JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/scripted/hint-helps.json'), 'utf8')));

function spade(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('npx', ['tsx', 'src/cli/main.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

let server: FakeOpenAIServer;
beforeAll(async () => {
  server = await FakeOpenAIServer.start();
  server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT)));
});
afterAll(() => server.close());

describe('spade run against an OpenAI-compatible server', () => {
  it('runs the same loop over HTTP streaming, surviving a server error, with the same numbers', async () => {
    // The client first asks for the context window (vLLM's /v1/models, llama.cpp's /props); this server says nothing, so prompts go whole.
    server.enqueue(
      jsonReply({ data: [{ id: 'tiny-test-model' }] }),
      jsonReply({ error: { message: 'Not Found' } }, 404),
      jsonReply({ error: { message: 'overloaded' } }, 503),
    );
    const out = tempDir('spade-openai-');
    const result = await spade([
      'run',
      '--model',
      `openai:${server.origin}/v1#tiny-test-model`,
      '--seed',
      '7',
      '--out',
      out,
      '--slots',
      '2',
      '--plays',
      '2',
      '--max-turns',
      '3',
      '--skills',
      'logical-deduction',
      '--no-corpus',
      // The stand-in server answers from a script used in turn, so requests must come one at a time.
      '--concurrency',
      '1',
    ]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^epoch 1: 2\/2 valid \(validity 0\.67\), regret 0\.50, win rate 0\.50, designer reward 0\.20, 8 episodes/m,
    );
    expect(server.requests.slice(0, 2).map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/models', 'GET /props']);
    const chats = server.requests.slice(2);
    const bodies = chats.map((r) => r.body as Record<string, unknown>);
    expect(chats.every((r) => r.path === '/v1/chat/completions')).toBe(true);
    expect(bodies[0]).toEqual(bodies[1]);
    expect(bodies[0]).toMatchObject({
      model: 'tiny-test-model',
      stream: true,
      temperature: 0.6,
      top_p: 0.95,
      max_tokens: 4096,
    });
    expect(bodies.every((b) => Number.isInteger(b.seed))).toBe(true);
    expect(bodies.some((b) => b.temperature === 0.3)).toBe(true);
    expect(readFileSync(join(out, 'config.json'), 'utf8')).toContain(
      `"model": "openai:${server.origin}/v1#tiny-test-model"`,
    );
  });

  it('fails with a clear message when the server is unreachable', async () => {
    const closed = await FakeOpenAIServer.start();
    const origin = closed.origin;
    await closed.close();
    const result = await spade([
      'run',
      '--model',
      `openai:${origin}#m`,
      '--out',
      tempDir('spade-openai-'),
      '--slots',
      '1',
      '--no-corpus',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(origin);
    expect(result.stderr.toLowerCase()).toContain('is the server running');
  });
});
