import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { scriptedModel } from '../../../src/adapters/llm/scripted/scripted-learner.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import type { EvalRecord } from '../../../src/core/eval/eval-record.ts';
import type { Suite } from '../../../src/core/eval/suite.ts';
import { parseCorpus } from '../../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { runEpochs } from '../../../src/core/loop/run-epochs.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { jeffreysInterval } from '../../../src/core/eval/beta.ts';

// The labelled scripted learner of the demo (public/demo/demo-script.json) with the real Node
// sandbox, held out on the first built-in environment of three skills: the numbers are known in
// advance because the learner wins a held-out game exactly when its playbook holds a lesson for the
// game's skill, and the first demo epoch teaches it one lesson for each of its two skills
// (Mathematical Reasoning and Logical Deduction), none for Optimization.
const PUBLIC = new URL('../../../public/', import.meta.url);
const SCRIPT = parseChatScript(JSON.parse(readFileSync(new URL('demo/demo-script.json', PUBLIC), 'utf8')));
const CORPUS = parseCorpus(readFileSync(new URL('corpus/concepts.jsonl', PUBLIC), 'utf8')).docs;

/** The first built-in environment of three skills (every suite environment's lines are tested in tests/suites). */
function threeEnvironments(): Suite {
  const rows = readFileSync(new URL('suites/builtin/manifest.jsonl', PUBLIC), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { file_name: string; skill_name: string; title: string });
  const environments = rows.map((row) => ({
    id: row.file_name.replace(/\.py$/, ''),
    skill: row.skill_name,
    title: row.title,
    code: readFileSync(new URL(`suites/builtin/games/${row.file_name}`, PUBLIC), 'utf8'),
  }));
  const skills = ['Mathematical Reasoning', 'Logical Deduction', 'Optimization'];
  const firsts = skills.map((skill) => environments.find((env) => env.skill === skill)!);
  return { name: 'builtin, three environments', sha256: 'test', environments: firsts };
}

const sandbox = fileSandbox();
const CONFIG: Config = { ...DEFAULT_CONFIG, seed: 1, evalEvery: 1, evalSeeds: 2 };

async function demoRun(usePlaybook: boolean, epochs: number): Promise<EpochResult[]> {
  const results: EpochResult[] = [];
  await runEpochs(
    {
      model: scriptedModel(SCRIPT, 'spade-lab-demo'),
      sandbox: sandbox(),
      corpus: CORPUS,
      evalSuite: threeEnvironments(),
      commit: async (r) => void results.push(r),
    },
    INITIAL_RUN_STATE,
    { ...CONFIG, usePlaybook },
    epochs,
  );
  return results;
}

const evaluations = (results: EpochResult[]): EvalRecord[] => results.flatMap((r) => r.evaluations);

describe('the scripted learner demo: held-out win rate with the playbook on and off', () => {
  it('rises by the plays of each skill that has a lesson with the playbook on, and stays at 0 with it off', async () => {
    const on = await demoRun(true, 1);
    const off = await demoRun(false, 1);
    expect(on[0]!.nextState.playbook!.map((l) => [l.skill, l.sourceEnvId, l.origin])).toEqual([
      ['Mathematical Reasoning', 'e0000-s00', 'learned'],
      ['Logical Deduction', 'e0000-s01', 'learned'],
    ]);
    expect(evaluations(on).map((e) => [e.afterEpochs, e.wins, e.episodes, e.environments])).toEqual([
      [0, 0, 6, 3],
      [1, 4, 6, 3],
    ]);
    expect(evaluations(off).map((e) => [e.afterEpochs, e.wins, e.episodes])).toEqual([
      [0, 0, 6],
      [1, 0, 6],
    ]);
    const after = evaluations(on)[1]!;
    // One environment: the interval is the Jeffreys floor over one environment (docs/method.md section 7), not a point.
    expect(after.perSkill['Mathematical Reasoning']).toMatchObject({
      environments: 1,
      episodes: 2,
      wins: 2,
      winRate: 1,
      ci95: jeffreysInterval(1, 1),
    });
    expect(after.perSkill['Optimization']).toMatchObject({ wins: 0, winRate: 0 });
    expect(evaluations(on).every((e) => e.plays.every((p) => p.error === null))).toBe(true);
  }, 300_000);
});
