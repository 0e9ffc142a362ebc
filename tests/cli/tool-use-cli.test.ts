// The tool-use setting through the CLI and the pool format, in-process with one real Node sandbox
// for the file: `spade run --setting tool_use` on the scripted demo gives the known regret and
// `spade verify` passes on it; then a pool of tool-use environments (the run's and one written for
// this project in the reference's example shape) is exported and imported back through both
// import paths (`spade import` and the app's importIntoStore) with setting and domain intact.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileSandbox } from '../fixtures/sandbox/file-sandbox.ts';
import { readToolUseEnv } from '../fixtures/tool-use-fixtures.ts';
import { runCli } from '../../src/cli/cli.ts';
import { importIntoStore } from '../../src/adapters/store/import-run.ts';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { hashText } from '../../src/adapters/store/sha256.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../src/core/env/validate-env.ts';
import { slotDomain } from '../../src/core/loop/design-slot.ts';
import type { EnvironmentRecord, EpochMetrics } from '../../src/core/records.ts';
import { TOOL_USE_DOMAINS } from '../../src/core/skills.ts';
import { buildPoolFiles } from '../../src/formats/export/pool-export.ts';
import { ROOT } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const runtime = fileSandbox();
const SEED = 7;
const TELECOM = TOOL_USE_DOMAINS.find((d) => d.startsWith('telecom'))!;

async function spade(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    runtime,
    out: (line) => (stdout += line + '\n'),
    err: (text) => (stderr += text),
  });
  return { status, stdout, stderr };
}
const jsonl = <T>(dir: string, file: string): T[] =>
  readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as T);
const json = (dir: string, file: string) =>
  JSON.parse(readFileSync(join(dir, file), 'utf8')) as { config: { setting: string; skills: string[] } };

let tmp: string;
let run: string;
beforeAll(async () => {
  tmp = tempDir('spade-tool-use-');
  run = join(tmp, 'run');
  // The least that shows the regret: one slot, one play per arm, four turns (the hinted winning line's length).
  const flags = [
    '--slots',
    '1',
    '--plays',
    '1',
    '--hint-plays',
    '1',
    '--max-turns',
    '4',
    '--no-corpus',
    '--validate-timeout-ms',
    '30000',
    '--step-timeout-ms',
    '10000',
  ];
  const result = await spade(
    'run',
    '--setting',
    'tool_use',
    '--model',
    `scripted:${join(ROOT, 'public/demo/tool-use-script.json')}`,
    '--epochs',
    '1',
    '--seed',
    String(SEED),
    '--out',
    run,
    ...flags,
  );
  expect(result.status, result.stderr).toBe(0);
});

describe('spade run --setting tool_use on the scripted demo', () => {
  it('gives the known regret (the agent wins only with the hint), on a tool-use environment in its slot domain', () => {
    const [metrics] = jsonl<EpochMetrics>(run, 'epochs.jsonl');
    // r_hint 1, r_nohint 0: regret 1, win rate 0, blend reward 0.4 * clip(1 / 0.15, 0, 1) + 0.6 * plateau(0) = 0.4.
    expect(metrics).toMatchObject({ validEnvironments: 1, meanRegret: 1, meanWinRate: 0, meanDesignerReward: 0.4 });
    const [env] = jsonl<EnvironmentRecord>(run, 'environments.jsonl');
    expect([env!.skill, env!.domain, env!.stats?.regret, env!.attempts[0]!.validation.toolUse]).toEqual([
      'API Orchestration',
      slotDomain(SEED, 'e0000-s00'),
      1,
      true,
    ]);
    expect(json(run, 'run.json').config.setting).toBe('tool_use');
  });

  it('passes spade verify', async () => {
    const result = await spade('verify', '--run', run);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});

describe('a tool-use pool, exported and imported back', () => {
  const skillsAndDomains = (envs: readonly EnvironmentRecord[]) => envs.map((e) => [e.skill, e.domain]);
  let expected: Array<[string, string]>;
  let pool: string;
  let files: Array<{ path: string; text: string }>;

  beforeAll(async () => {
    const code = readToolUseEnv('good', 'phone_lines.py');
    const report = await validateEnvironment(code, runtime(), {
      ...DEFAULT_VALIDATION,
      totalTimeoutMs: 30_000,
      callTimeoutMs: 10_000,
      source: 'code',
    });
    expect(report).toMatchObject({ ok: true, className: 'PhoneLinesEnv', toolUse: true });
    const [designed] = jsonl<EnvironmentRecord>(run, 'environments.jsonl');
    const mine: EnvironmentRecord = {
      ...designed!,
      id: 'phone-lines',
      slot: 1,
      skill: 'Multi-Step Workflows',
      domain: TELECOM,
      code,
      hint: null,
      stats: null,
    };
    expected = [
      ['API Orchestration', designed!.domain!],
      ['Multi-Step Workflows', TELECOM],
    ];
    files = await buildPoolFiles([designed!, mine], hashText);
    pool = join(tmp, 'pool');
    for (const file of files) {
      mkdirSync(dirname(join(pool, file.path)), { recursive: true });
      writeFileSync(join(pool, file.path), file.text);
    }
  });

  it("the manifest carries each environment's setting and domain, with the reference's skill slugs", () => {
    const rows = files
      .find((f) => f.path === 'manifest.jsonl')!
      .text.trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [r.skill, r.skill_name, r.setting, r.domain])).toEqual(
      expected.map(([skill, domain]) => [skill.toLowerCase().replaceAll(' ', '_'), skill, 'tool_use', domain]),
    );
  });

  it('spade import keeps the setting and the domains, and the skills of the tool-use setting', async () => {
    const into = join(tmp, 'imported');
    const result = await spade('import', pool, '--out', into);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(skillsAndDomains(jsonl<EnvironmentRecord>(into, 'environments.jsonl'))).toEqual(expected);
    expect(json(into, 'run.json').config).toMatchObject({
      setting: 'tool_use',
      skills: ['API Orchestration', 'Multi-Step Workflows'],
    });
  });

  it("the app's import path keeps them too, with no problem reported", async () => {
    const store = new MemoryRunStore();
    const report = await importIntoStore(
      store,
      files.map((f) => ({ path: `pool/${f.path}`, bytes: new TextEncoder().encode(f.text) })),
      { sandbox: runtime() },
      { now: 1 },
    );
    expect(report.problems).toEqual([]);
    expect(report.snapshot!.meta.config).toMatchObject({
      setting: 'tool_use',
      skills: ['API Orchestration', 'Multi-Step Workflows'],
    });
    expect(skillsAndDomains(await store.queryEnvironments(report.runId!))).toEqual(expected);
  });
});
