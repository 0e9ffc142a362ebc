import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runRun } from '../../src/cli/run-command.ts';
import { runVerify } from '../../src/cli/verify-command.ts';
import { UsageError } from '../../src/cli/args.ts';
import type { SandboxRuntime } from '../../src/core/ports/sandbox-port.ts';
import type { Mismatch } from '../../src/verify/checker.ts';
import type { ReferenceComparison } from '../../src/core/scoring/reference-recompute.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { VERIFY_MIXED_DOUBLES } from '../fixtures/verify-mixed-doubles.ts';
import { inProcessSpade, ROOT, spadeSubprocess } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

// Coin (hint helps, rewards 2.0 clipped to 1 and -0.5), a rejected reply, Lever (0.5, 1 or a
// truncated 0.7 that scores 0), Crashy (crashes on some seeds: retried, dropped, quarantined) and,
// in epoch 2, Stall (hangs on play seeds with seed % 8 == 6, which neither probe seed nor this run's
// validation challenge hits: step_timeout in a play, the rest skipped). The environments run as
// in-process doubles (tests/fixtures/verify-mixed-doubles.ts): verify reads files, the sandbox is
// not its point; tests/cli/run.test.ts verifies a run made with the real sandbox.
const SCRIPT = 'tests/fixtures/scripted/verify-mixed.json';

const sandbox = fakeSandbox(VERIFY_MIXED_DOUBLES);
const spade = inProcessSpade();

/** Runs `spade run` in-process on the environment doubles. */
async function makeRun(reward: string, epochs: number, extra: readonly string[] = []): Promise<string> {
  const out = tempDir(`spade-verify-${reward}-`);
  const argv = [
    '--model',
    `scripted:${join(ROOT, SCRIPT)}`,
    '--epochs',
    String(epochs),
    '--seed',
    '11',
    '--out',
    out,
    '--reward',
    reward,
    '--rollouts',
    '2',
    '--slots',
    '4',
    '--attempts',
    '1',
    '--plays',
    '3',
    '--hint-plays',
    '3',
    '--max-turns',
    '3',
    '--skills',
    'logical deduction,optimization',
    '--skills-per-epoch',
    '2',
    '--no-corpus',
    ...extra,
  ];
  expect(
    await runRun(
      argv,
      () => sandbox,
      () => undefined,
    ),
  ).toBe(0);
  return out;
}

const noSandbox = (): SandboxRuntime => {
  throw new Error('verify needs no sandbox');
};

async function verifyJson(dir: string): Promise<{ code: number; checked: number; mismatches: Mismatch[] }> {
  const lines: string[] = [];
  const code = await runVerify(['--run', dir, '--json'], noSandbox, (line) => lines.push(line));
  return { code, ...(JSON.parse(lines[0]!) as { checked: number; mismatches: Mismatch[] }) };
}

const jsonl = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, any>);

/** Copies a run and rewrites the first line of `file` that `pick` selects. */
function tampered(
  dir: string,
  file: string,
  pick: (row: Record<string, any>) => boolean,
  edit: (row: Record<string, any>) => void,
): { dir: string; row: Record<string, any> } {
  const copy = tempDir('spade-verify-tampered-');
  cpSync(dir, copy, { recursive: true });
  const rows = jsonl(copy, file);
  const row = rows.find(pick)!;
  expect(row).toBeDefined();
  edit(row);
  writeFileSync(join(copy, file), rows.map((r) => JSON.stringify(r) + '\n').join(''));
  return { dir: copy, row };
}

let blend: string;
let potential: string;
let regret: string;
let crashesLose: string;
beforeAll(async () => {
  blend = await makeRun('blend', 3);
  potential = await makeRun('learning_potential', 2);
  regret = await makeRun('regret', 3);
  crashesLose = await makeRun('regret', 3, ['--crashes-lose']);
});

describe('spade verify', () => {
  it('recomputes every derived value of a 3-epoch R = 2 blend run and finds them all equal', () => {
    const result = spadeSubprocess('verify', '--run', blend);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const checked = Number(/(\d+) values recomputed, 0 mismatches/.exec(result.stdout)?.[1]);
    console.log(`verify (blend): ${checked} values recomputed`);
    const episodes = jsonl(blend, 'episodes.jsonl');
    const scored = jsonl(blend, 'environments.jsonl').filter((e) => e.stats);
    // At least: return, dropped, advantage per episode; 11 stats and the status per scored env; 4 per agent row.
    expect(checked).toBeGreaterThanOrEqual(
      3 * episodes.length + 12 * scored.length + 4 * episodes.filter((e) => e.arm === 'nohint' && !e.dropped).length,
    );
    // The run exercises what the formulas branch on.
    expect(episodes.some((e) => e.return === 1 && e.turns.at(-1).reward === 2)).toBe(true);
    expect(
      episodes.some(
        (e) => e.return === 0 && e.error === null && !e.turns.at(-1).terminated && e.turns.at(-1).reward > 0,
      ),
    ).toBe(true);
    expect(episodes.some((e) => e.retried)).toBe(true);
    expect(episodes.some((e) => e.error?.code === 'step_timeout')).toBe(true);
    expect(episodes.some((e) => e.advantage !== 0)).toBe(true);
    // A quarantined environment is checked too: its status, and that it has no stats or rows.
    expect(jsonl(blend, 'environments.jsonl').some((e) => e.status === 'quarantined' && e.stats === null)).toBe(true);
    expect(scored.some((e) => e.stats.rHint === null)).toBe(true);
    expect(scored.some((e) => e.stats.designerAdvantage !== 0)).toBe(true);
  });

  it('agrees on a learning_potential run (skill averages carried across epochs) and a regret run (with a hang)', async () => {
    for (const dir of [potential, regret]) {
      const report = await verifyJson(dir);
      console.log(
        `verify (${JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).config.reward}): ${report.checked} values recomputed`,
      );
      expect(report.mismatches).toEqual([]);
      expect(report.code).toBe(0);
      expect(report.checked).toBeGreaterThan(400);
    }
    // Stall's hang skips its remaining plays, so at least half of them are dropped: it is quarantined and
    // scored nowhere. The regret reward's -0.5 for a hang that leaves its environment scored is checked
    // by hand in tests/core/scoring/edge-cases.test.ts and against verify in tests/verify/recompute-edges.test.ts.
    const hung = new Set(
      jsonl(regret, 'episodes.jsonl')
        .filter((e) => e.error?.code === 'step_timeout')
        .map((e) => e.envId),
    );
    expect(hung.size).toBeGreaterThan(0);
    for (const env of jsonl(regret, 'environments.jsonl').filter((e) => hung.has(e.id)))
      expect(env).toMatchObject({ status: 'quarantined', stats: null });
    const averages = JSON.parse(readFileSync(join(potential, 'state.json'), 'utf8')).state.skillAverages;
    expect(Object.values(averages).some((a: any) => a.fast !== a.slow)).toBe(true);
  });

  it("agrees on a regret run under the reference's failure rule: Crashy's crashes are kept -1 plays, and a run claiming the tab rule is caught", async () => {
    const report = await verifyJson(crashesLose);
    expect(report.mismatches).toEqual([]);
    expect(report.code).toBe(0);
    const kept = jsonl(crashesLose, 'episodes.jsonl').filter((e) => e.crash);
    expect(kept.length).toBeGreaterThan(0);
    for (const e of kept)
      expect([e.error, e.dropped, e.return, e.crash.code]).toEqual([null, false, -1, 'step_exception']);
    const dir = tempDir('spade-verify-tampered-');
    cpSync(crashesLose, dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(config.config.crashesLose).toBe(true);
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ ...config, config: { ...config.config, crashesLose: false } }),
    );
    const claimed = await verifyJson(dir);
    expect(claimed.code).toBe(1);
    expect(new Set(claimed.mismatches.map((m) => m.field))).toContain('crash kept');
  });

  it('names a tampered episode return, and only it', async () => {
    const { dir, row } = tampered(
      blend,
      'episodes.jsonl',
      (e) => e.arm === 'nohint' && !e.dropped && e.return === 1,
      (e) => (e.return = 0),
    );
    const lines: string[] = [];
    expect(await runVerify(['--run', dir], noSandbox, (l) => lines.push(l))).toBe(1);
    expect(lines).toContain(`mismatch episodes.jsonl ${row.id} return: stored 0, recomputed 1`);
    expect(lines.at(-1)).toMatch(/ 1 mismatch$/);
  });

  it('names a tampered agent advantage, designer advantage and skill average', async () => {
    const agent = tampered(
      blend,
      'rollouts.jsonl',
      (r) => r.role === 'agent' && r.advantage !== 0,
      (r) => (r.advantage += 0.5),
    );
    const agentReport = await verifyJson(agent.dir);
    expect(agentReport.code).toBe(1);
    expect(agentReport.mismatches).toHaveLength(1);
    expect(agentReport.mismatches[0]).toMatchObject({
      file: 'rollouts.jsonl',
      field: 'advantage',
      stored: agent.row.advantage,
    });
    expect(agentReport.mismatches[0]!.id).toMatch(new RegExp(`^agent/${agent.row.envId}-r\\d-nohint-\\d$`));

    const env = tampered(
      potential,
      'environments.jsonl',
      (e) => e.stats && Math.abs(e.stats.designerAdvantage) > 1e-9,
      (e) => (e.stats.designerAdvantage *= -1),
    );
    const envReport = await verifyJson(env.dir);
    expect(envReport.code).toBe(1);
    expect(envReport.mismatches).toEqual([
      {
        file: 'environments.jsonl',
        id: env.row.id,
        field: 'stats.designerAdvantage',
        stored: env.row.stats.designerAdvantage,
        recomputed: -env.row.stats.designerAdvantage,
      },
    ]);

    const state = tampered(
      potential,
      'state.json',
      () => true,
      (s) => {
        const first = Object.values(s.state.skillAverages)[0] as { slow: number };
        first.slow += 1e-6;
      },
    );
    const stateReport = await verifyJson(state.dir);
    expect(stateReport.code).toBe(1);
    expect(stateReport.mismatches.map((m) => `${m.file} ${m.field}`)).toEqual(['state.json slow']);
  });

  it("also prints what the reference's rules would change: the crash rule recomputed on a tab run, nothing once the run kept crashes", async () => {
    const lines: string[] = [];
    expect(await runVerify(['--run', regret], noSandbox, (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toMatch(/ 0 mismatches$/);
    expect(lines[0]).toMatch(
      /^reference rules: (1 setting differs|\d+ settings differ) from the reference preset: 1 recomputed from the stored plays, \d+ need a new run, 3 without effect in this setting$/,
    );
    expect(
      lines.filter((l) =>
        l.startsWith(
          '  crashesLose (run false, reference true), recomputed: a play whose step crashed becomes a kept -1',
        ),
      ),
    ).toHaveLength(1);
    expect(
      lines.some((l) =>
        /^ {4}play return: \d+ of \d+ differ, e\.g\. epoch \d e\d{4}-s\d\d-r\d-(no)?hint-\d: dropped -> -1$/.test(l),
      ),
    ).toBe(true);
    expect(lines).toContain(
      '  needs a new run, playsPerArm (run 3, reference 8): changes how many plays each rollout has',
    );
    expect(lines).toContain('  every recomputable reference rule at once: the same as crashesLose alone');

    const tab = (await verifyJson(regret)) as unknown as { reference: ReferenceComparison };
    const crashes = tab.reference.differences.find((d) => d.knob === 'crashesLose')!;
    const returns = crashes.tallies.find((t) => t.quantity === 'play return')!;
    // Every changed play was a step crash that the tab dropped (unhinted) or scored 0 (hinted); under the reference it is a kept -1.
    const crashed = jsonl(regret, 'episodes.jsonl').filter((e) => e.error?.code === 'step_exception');
    expect(returns.changes.length).toBeGreaterThan(0);
    for (const c of returns.changes) expect([c.run === 'dropped' || c.run === 0, c.reference]).toEqual([true, -1]);
    expect(returns.changes.every((c) => crashed.some((e) => e.id.startsWith(c.id)))).toBe(true);

    const kept = (await verifyJson(crashesLose)) as unknown as { reference: ReferenceComparison };
    expect(kept.reference.differences.map((d) => d.knob)).not.toContain('crashesLose');
    expect(kept.reference.combined.filter((t) => t.changes.length > 0)).toEqual([]);
  });

  it('exits 2 on bad usage', async () => {
    const result = await spade('verify');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('verify needs --run DIR');
    await expect(runVerify(['--run', blend, '--bogus'], noSandbox, () => undefined)).rejects.toBeInstanceOf(UsageError);
  });
});
