// A run at the storage limits round-trips: the real archive writer writes it, the importer reads
// every line back (its line cap is at least the longest line the writer can produce), the episodes
// come back equal, and verify recomputes every number from them. An environment whose every
// observation is 100,000 U+0001 characters (written as six characters each) fills its episodes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { CONFIG_TABLE } from '../../src/core/config-table.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { runEpoch } from '../../src/core/loop/epoch.ts';
import { INITIAL_RUN_STATE } from '../../src/core/loop/epoch.ts';
import {
  clipEpisode,
  EPISODE_TEXT_CHARS,
  episodeTextSize,
  longestEpisodeLine,
} from '../../src/core/loop/stored-episode.ts';
import type { Episode } from '../../src/core/records.ts';
import { toJsonLines, type ImportFile } from '../../src/formats/export/files.ts';
import { buildArchiveFiles } from '../../src/formats/export/run-archive.ts';
import { importFiles } from '../../src/formats/import/import-files.ts';
import { MAX_LINE_CHARS } from '../../src/formats/import/import-limits.ts';
import { recomputeRun } from '../../src/verify/recompute-run.ts';
import { testMeta } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox, oneStepGame, type FakeClass } from '../fixtures/fake-sandbox.ts';

const FLOOD = '\u0001'.repeat(100_000);
const SHORT_FLOOD = FLOOD.slice(0, 5_000);
const WIDEST = -0.0000012345678901234567;
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Never won: every observation is the flood, the episode runs to the turn cap. */
const flood: FakeClass = (maxTurns) => {
  let turns = 0;
  return {
    reset: () => ((turns = 0), { observation: FLOOD, info: {} }),
    step: () => ({ observation: FLOOD, reward: 0, terminated: false, truncated: ++turns >= maxTurns, info: {} }),
  };
};

const longestLine = (text: string) => Math.max(...text.split('\n').map((line) => line.length));

describe('the importer reads every line the writer can write', () => {
  it("the line cap holds the longest episode line at the config's most turns, and the real writer stays within that bound", () => {
    const maxTurns = CONFIG_TABLE.maxTurns.max;
    expect(longestEpisodeLine(maxTurns)).toBeLessThanOrEqual(MAX_LINE_CHARS);
    const worst: Episode = {
      ...{
        id: 'e9999-s99-r15-nohint-63-failed',
        envId: 'e9999-s99',
        epoch: 9999,
        rollout: 15,
        arm: 'nohint',
        index: 63,
        seed: 4294967295,
      },
      ...{ firstObservation: FLOOD, instructions: [FLOOD, FLOOD], messages: [{ role: 'user', content: FLOOD }] },
      turns: Array.from({ length: maxTurns }, () => ({
        reply: SHORT_FLOOD,
        action: SHORT_FLOOD,
        observation: SHORT_FLOOD,
        reward: WIDEST,
        terminated: false,
        truncated: false,
        progress: { done: 2 ** 53 - 1, criteria: [true, false, SHORT_FLOOD] },
      })),
      ...{ return: 0, error: { code: 'validation_timeout', message: FLOOD }, dropped: true, retried: true },
      ...{ usage: { promptTokens: 2 ** 53 - 1, completionTokens: 2 ** 53 - 1 }, advantage: WIDEST },
    };
    worst.messages.push(
      ...worst.turns.flatMap((t) => [
        { role: 'assistant' as const, content: t.reply },
        { role: 'tool' as const, content: t.observation },
      ]),
    );
    const stored = clipEpisode(worst);
    expect(stored.clipped).toBe(true);
    const line = toJsonLines([stored]).length - 1;
    expect(line).toBeGreaterThan(EPISODE_TEXT_CHARS * 0.95);
    expect(line).toBeLessThanOrEqual(longestEpisodeLine(maxTurns));
  });

  it('an epoch of 100,000-character U+0001 observations is stored cut, exported, imported back whole, and verifies clean', async () => {
    const config: Config = {
      ...DEFAULT_CONFIG,
      skills: ['Logical Deduction'],
      skillsPerEpoch: 1,
      slotsPerEpoch: 2,
      playsPerArm: 2,
      hintPlays: 2,
      maxTurns: 12,
      useCorpus: false,
    };
    const pool = [
      { id: 'flood', skill: 'Logical Deduction', code: 'class FloodEnv:\n    pass\n', title: null },
      { id: 'win', skill: 'Logical Deduction', code: 'class WinEnv:\n    pass\n', title: null },
    ];
    const sandbox = fakeSandbox({ 'class FloodEnv:': flood, 'class WinEnv:': oneStepGame });
    const model = new ScriptedChatModel((r) => (r.purpose === 'hint' ? 'Say win.' : 'I say \\boxed{win}.'));
    const result = await runEpoch({ model, sandbox, corpus: [], fixedPool: pool }, INITIAL_RUN_STATE, config);
    const floods = result.episodes.filter((e) => e.envId === result.environments[0]!.id);
    expect(floods.length).toBe(4);
    expect(
      floods.every((e) => e.clipped === true && e.turns.length === 12 && episodeTextSize(e) <= EPISODE_TEXT_CHARS),
    ).toBe(true);
    expect(result.rollouts.filter((r) => r.envId === result.environments[0]!.id).every((r) => r.clipped === true)).toBe(
      true,
    );
    expect(
      result.episodes
        .filter((e) => e.envId === result.environments[1]!.id)
        .every((e) => e.clipped === undefined && e.return === 1),
    ).toBe(true);

    const snapshot = {
      meta: { ...testMeta('flood'), config, epochsCompleted: 1 },
      state: result.nextState,
      epochs: [{ metrics: result.metrics, timings: result.timings }],
      environments: result.environments,
      episodes: result.episodes,
      rollouts: result.rollouts,
      evaluations: [],
    };
    const files = await buildArchiveFiles(snapshot, async (text) => sha(text));
    const episodesText = files.find((f) => f.path === 'episodes.jsonl')!.text;
    expect(longestLine(episodesText)).toBeGreaterThan(EPISODE_TEXT_CHARS * 0.9);
    for (const f of files) expect(longestLine(f.text), f.path).toBeLessThanOrEqual(MAX_LINE_CHARS);

    const read: ImportFile[] = files.map((f) => ({ path: `backup/${f.path}`, text: f.text, sha256: sha(f.text) }));
    const report = await importFiles(read, { sandbox, hashText: async (text) => sha(text) }, { now: 2 });
    expect(report.problems).toEqual([]);
    expect(report.snapshot!.episodes).toEqual(result.episodes);
    expect(report.snapshot!.rollouts).toEqual(result.rollouts);
    const back = report.snapshot!;
    const verified = recomputeRun({
      config: { reward: config.reward, rolloutsPerEpoch: config.rolloutsPerEpoch, playsPerArm: config.playsPerArm },
      environments: back.environments,
      episodes: back.episodes,
      rollouts: back.rollouts,
      epochs: back.epochs.map((e) => e.metrics),
      state: { memory: back.state.memory, skillAverages: back.state.skillAverages },
      evaluations: back.evaluations,
    });
    expect(verified.mismatches).toEqual([]);
    expect(verified.checked).toBeGreaterThan(20);
  });
});
