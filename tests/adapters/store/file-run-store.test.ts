// The file store: the `spade run` directory layout, whole epochs after an interrupted commit, and
// older run directories without state.json. Epochs come from the frozen dump (real scripted epochs).
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileRunStore } from '../../../src/adapters/store/file-run-store.ts';
import { configFileText, RUN_FILES, type StateFile } from '../../../src/formats/export/run-files.ts';
import { rememberEnvironments } from '../../../src/core/loop/memory.ts';
import { epochsOfDump, readV1Dump } from './dump-fixture.ts';
import { testMeta } from './store-fixtures.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';

const EPOCHS = epochsOfDump(readV1Dump(), 'real');
const newDir = () => join(tempDir('spade-file-store-'), 'run-dir');
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

async function cleanRun(epochs = EPOCHS): Promise<string> {
  const dir = newDir();
  const store = new FileRunStore(dir);
  await store.createRun(testMeta('r'));
  for (const e of epochs) await store.commitEpoch('r', e);
  return dir;
}

describe('file store', () => {
  it('writes the spade run layout: config.json, JSON Lines with code sha256, state.json with the committed sizes', async () => {
    const dir = await cleanRun();
    expect(read(dir, 'config.json')).toBe(configFileText(testMeta('r').config, testMeta('r').modelId));
    const envLines = read(dir, 'environments.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { code: string; sha256: string; id: string });
    expect(envLines.map((e) => e.id)).toEqual(['e0000-s00', 'e0000-s01', 'e0001-s00', 'e0001-s01']);
    for (const e of envLines) expect(e.sha256).toBe(createHash('sha256').update(e.code).digest('hex'));
    expect(
      read(dir, 'epochs.jsonl')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { epoch: number }).epoch),
    ).toEqual([0, 1]);
    const state = JSON.parse(read(dir, 'state.json')) as StateFile;
    expect(state.epochsCompleted).toBe(2);
    expect(state.state).toEqual(EPOCHS[1]!.nextState);
    for (const file of RUN_FILES) expect(state.sizes![file]).toBe(statSync(join(dir, file)).size);
    expect(JSON.parse(read(dir, 'run.json'))).toMatchObject({ id: 'r', epochsCompleted: 2 });
  });

  it('after an interrupted commit, reads whole epochs only; the next commit cuts the leftovers off', async () => {
    const dir = newDir();
    const store = new FileRunStore(dir);
    await store.createRun(testMeta('r'));
    await store.commitEpoch('r', EPOCHS[0]!);
    appendFileSync(
      join(dir, 'environments.jsonl'),
      JSON.stringify({ ...EPOCHS[1]!.environments[0], sha256: 'x' }) + '\n',
    );
    appendFileSync(join(dir, 'episodes.jsonl'), '{"id":"e0001-s00-r0-noh');
    const reopened = new FileRunStore(dir);
    expect((await reopened.queryEnvironments('r')).map((e) => e.id)).toEqual(['e0000-s00', 'e0000-s01']);
    expect((await reopened.loadRun('r'))!.state).toEqual(EPOCHS[0]!.nextState);
    await reopened.commitEpoch('r', EPOCHS[1]!);
    const clean = await cleanRun();
    for (const file of RUN_FILES.filter((f) => f !== 'timings.jsonl'))
      expect(read(dir, file), file).toBe(read(clean, file));
    expect(await reopened.countEnvironments('r')).toBe(4);
  });

  it('refuses to commit onto a run file shortened outside the app', async () => {
    const dir = await cleanRun([EPOCHS[0]!]);
    truncateSync(join(dir, 'episodes.jsonl'), 10);
    await expect(new FileRunStore(dir).commitEpoch('r', EPOCHS[1]!)).rejects.toMatchObject({ code: 'corrupt' });
  });

  it('reads an older spade run directory (no run.json or state.json) as a finished run it will not continue', async () => {
    const dir = await cleanRun();
    rmSync(join(dir, 'run.json'));
    rmSync(join(dir, 'state.json'));
    const store = new FileRunStore(dir);
    const [meta] = await store.listRuns();
    expect(meta).toMatchObject({
      id: 'run-dir',
      epochsCompleted: 2,
      status: 'completed',
      modelId: 'scripted:hint-helps.json',
    });
    const loaded = await store.loadRun('run-dir');
    const envs = EPOCHS.flatMap((e) => e.environments);
    expect(loaded!.state.epoch).toBe(2);
    expect(loaded!.state.memory).toEqual(
      rememberEnvironments(
        [],
        envs.map((e) => ({
          envId: e.id,
          skill: e.skill,
          code: e.code,
          winRate: e.stats!.fractionWon,
          regret: e.stats!.regret,
          epoch: e.epoch,
        })),
      ),
    );
    expect(loaded!.state.memory).toEqual(EPOCHS[1]!.nextState.memory);
    expect(await store.metricsOf('run-dir')).toEqual(EPOCHS.map((e) => e.metrics));
    await expect(store.commitEpoch('run-dir', { ...EPOCHS[1]!, epoch: 2 })).rejects.toMatchObject({ code: 'corrupt' });
  });

  it('continues a directory whose state.json has no sizes (an unzipped archive)', async () => {
    const dir = await cleanRun([EPOCHS[0]!]);
    const state = JSON.parse(read(dir, 'state.json')) as StateFile;
    writeFileSync(
      join(dir, 'state.json'),
      JSON.stringify({ epochsCompleted: state.epochsCompleted, state: state.state }),
    );
    const store = new FileRunStore(dir);
    await store.commitEpoch('r', EPOCHS[1]!);
    expect(await store.countEnvironments('r')).toBe(4);
    expect((JSON.parse(read(dir, 'state.json')) as StateFile).sizes).toBeDefined();
  });
});
