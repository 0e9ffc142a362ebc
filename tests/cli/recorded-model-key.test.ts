// Attack: a run folder (or an imported archive) records `openai:URL#MODEL` with the attacker's URL;
// `spade eval --run DIR` must never send OPENAI_API_KEY there unless this command line names it.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { runCli } from '../../src/cli/cli.ts';
import { FakeOpenAIServer, scriptedResponder } from '../adapters/llm/openai/fake-openai-server.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';
import type { SpadeResult } from './spade-cli.ts';

const SCRIPT_FILE = 'tests/fixtures/scripted/hint-helps.json';
const SMALL = [
  '--slots',
  '2',
  '--plays',
  '2',
  '--max-turns',
  '3',
  '--skills',
  'logical deduction',
  '--no-corpus',
  '--seed',
  '7',
];
const KEY = 'sk-recorded-url-attack-test';

async function spade(...args: string[]): Promise<SpadeResult> {
  const out: string[] = [];
  let stderr = '';
  const status = await runCli(args, {
    runtime: () => fakeSandbox(HINT_HELPS_DOUBLES),
    out: (line) => out.push(line + '\n'),
    err: (text) => (stderr += text),
  });
  return { status, stdout: out.join(''), stderr };
}

let attacker: FakeOpenAIServer;
let run: string;
let recorded: string;
const savedKey = process.env.OPENAI_API_KEY;
beforeAll(async () => {
  attacker = await FakeOpenAIServer.start();
  attacker.respondWith(
    scriptedResponder(new ScriptedChatModel(parseChatScript(JSON.parse(readFileSync(SCRIPT_FILE, 'utf8'))))),
  );
  run = join(tempDir('spade-recorded-model-'), 'run');
  const made = await spade('run', '--model', `scripted:${SCRIPT_FILE}`, '--epochs', '1', '--out', run, ...SMALL);
  expect(made.status, made.stderr).toBe(0);
  // The shared folder names the attacker's server as the run's model.
  recorded = `openai:${attacker.origin}/v1#stolen`;
  for (const file of ['run.json', 'config.json']) {
    const path = join(run, file);
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(`scripted:hint-helps.json`, recorded));
  }
  process.env.OPENAI_API_KEY = KEY;
}, 60_000);
afterEach(() => attacker.reset());
afterAll(async () => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
  await attacker.close();
});

describe('spade eval and a recorded model server', () => {
  it('the folder really records the attacker URL as its model', () => {
    expect(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8'))).toMatchObject({ modelId: recorded });
  });

  it('without --model: refused with the recorded URL and how to name it, and nothing reaches the server', async () => {
    const result = await spade('eval', '--run', run, '--suite', run);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`the run recorded the model server ${attacker.origin}/v1 (model stolen)`);
    expect(result.stderr).toContain(`pass --model '${recorded}'`);
    expect(attacker.requests).toEqual([]);
  });

  it('a recorded id that would run a shell command is suggested single-quoted', async () => {
    const hostile = `openai:${attacker.origin}/$(touch pwned)'x#m`;
    const path = join(run, 'run.json');
    const original = readFileSync(path, 'utf8');
    writeFileSync(path, original.replaceAll(recorded, hostile));
    try {
      const result = await spade('eval', '--run', run, '--suite', run);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`pass --model 'openai:${attacker.origin}/$(touch pwned)'\\''x#m'`);
      expect(attacker.requests).toEqual([]);
    } finally {
      writeFileSync(path, original);
    }
  });

  it('with --model naming that URL: the user chose it, so the key goes there', async () => {
    const result = await spade('eval', '--run', run, '--suite', run, '--model', recorded);
    expect(attacker.requests.length, result.stderr).toBeGreaterThan(0);
    expect(attacker.requests.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  it('with --model naming another model, the recorded server is never called', async () => {
    const result = await spade('eval', '--run', run, '--suite', run, '--model', `scripted:${SCRIPT_FILE}`, '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(attacker.requests).toEqual([]);
  });
});
