// One real `spade run` (real Pyodide, the Node sandbox) over a fixed pool holding three hostile
// environments beside a good one, up to eight plays at once (each environment on the sandbox's lanes): one rewrites its harness reply to an
// unknown value tag mid-play, one sends an info dict nested 12,000 deep, one floods every
// observation with 100,000 U+0001 characters. The run must finish (a hang fails the hook's
// time limit), each hostile environment must fail or be stored on its own terms, the good one keep
// its numbers, and the run's archive must import back and verify clean.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { EPISODE_TEXT_CHARS } from '../../src/core/loop/stored-episode.ts';
import { MAX_LINE_CHARS } from '../../src/formats/import/import-limits.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';
import { inProcessSpade } from './spade-cli.ts';

const HOSTILE = join(import.meta.dirname, '../fixtures/envs/hostile/protocol');
const PLAIN_DOOR = `class PlainDoorEnv:
    def __init__(self, max_turns=4):
        self.max_turns = max_turns
        self.turn_count = 0

    def reset(self, seed=None):
        self.turn_count = 0
        return "A plain door. Say the password with \\\\boxed{word}.", {}

    def step(self, action):
        self.turn_count += 1
        if "door" in action:
            return "Open.", 1.0, True, False, {}
        return "Closed. Say \\\\boxed{word}.", 0.0, False, self.turn_count >= self.max_turns, {}
`;
// Every rule has one reply, so the scripted model serves any number of requests at once.
const SCRIPT = {
  name: 'hostile-pool',
  rules: [
    { purpose: 'hint', replies: ['Say the word on the door.'] },
    { purpose: 'agent', match: 'red door', replies: ['I say \\boxed{xyzzy}.'] },
    { purpose: 'agent', match: 'deep well', replies: ['I say \\boxed{plugh}.'] },
    { purpose: 'agent', replies: ['I say \\boxed{door}.'] },
  ],
};

type Row = Record<string, unknown> & { id: string; code: string; envId: string; status: string };
const spade = inProcessSpade();
const lines = (dir: string, file: string) =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
const rows = (dir: string, file: string) => lines(dir, file).map((line) => JSON.parse(line) as Row);

let tmp: string;
let run: string;
let status: { code: number | null; stderr: string };
let environments: Row[];
let episodes: Row[];
beforeAll(async () => {
  tmp = tempDir('spade-hostile-');
  const pool = join(tmp, 'pool');
  mkdirSync(join(pool, 'games'), { recursive: true });
  const games = ['unknown_tag.py', 'deep_info.py', 'control_flood.py'];
  for (const game of games) copyFileSync(join(HOSTILE, game), join(pool, 'games', game));
  writeFileSync(join(pool, 'games', 'plain_door.py'), PLAIN_DOOR);
  writeFileSync(
    join(pool, 'manifest.jsonl'),
    [...games, 'plain_door.py']
      .map((file) => JSON.stringify({ file_name: file, skill_name: 'Logical Deduction' }) + '\n')
      .join(''),
  );
  writeFileSync(join(tmp, 'script.json'), JSON.stringify(SCRIPT));
  run = join(tmp, 'run');
  const flags = [
    '--fixed-pool',
    pool,
    '--epochs',
    '1',
    '--slots',
    '4',
    '--plays',
    '1',
    '--hint-plays',
    '1',
    '--max-turns',
    '3',
    '--concurrency',
    '8',
    '--seed',
    '5',
    '--no-corpus',
  ];
  const result = await spade('run', '--model', `scripted:${join(tmp, 'script.json')}`, ...flags, '--out', run);
  status = { code: result.status, stderr: result.stderr };
  environments = rows(run, 'environments.jsonl');
  episodes = rows(run, 'episodes.jsonl');
}, 300_000);

const envOf = (className: string) => environments.find((env) => env.code.includes(`class ${className}`))!;
const episodesOf = (className: string) => episodes.filter((e) => e.envId === envOf(className).id);

describe('a run with hostile environments in its pool', () => {
  it('finishes and commits its epoch', () => {
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(run, 'run.json'), 'utf8'))).toMatchObject({
      status: 'completed',
      epochsCompleted: 1,
      lastError: null,
    });
  });

  it.each(['TagSwapEnv', 'DeepWellEnv'])(
    '%s fails every play with bad_harness_reply and is quarantined',
    (className) => {
      const own = episodesOf(className);
      expect(own.map((e) => [e.arm, e.retried])).toEqual([
        ['nohint', true],
        ['nohint', false],
        ['hint', false],
      ]);
      for (const e of own) expect(e).toMatchObject({ error: { code: 'bad_harness_reply' }, return: 0 });
      expect(envOf(className)).toMatchObject({ status: 'quarantined' });
    },
  );

  it('the flood is played to the turn cap and stored cut, flagged, within the line cap', () => {
    const own = episodesOf('ControlFloodEnv');
    expect(own).toHaveLength(2);
    for (const e of own) expect(e).toMatchObject({ error: null, return: 0, clipped: true, turns: [{}, {}, {}] });
    expect(Math.max(...lines(run, 'episodes.jsonl').map((line) => line.length))).toBeLessThanOrEqual(
      Math.min(MAX_LINE_CHARS, EPISODE_TEXT_CHARS + 100_000),
    );
  });

  it('the good environment keeps its numbers: every play won, regret 0', () => {
    expect(episodesOf('PlainDoorEnv').map((e) => [e.arm, e.return, e.error])).toEqual([
      ['nohint', 1, null],
      ['hint', 1, null],
    ]);
    expect(envOf('PlainDoorEnv')).toMatchObject({
      status: 'valid',
      stats: { rHint: 1, rNoHint: 1, regret: 0, winRate: 1 },
    });
  });

  it("the run's archive imports back with every episode and verifies clean", async () => {
    const zip = join(tmp, 'run.zip');
    expect((await spade('export', '--run', run, '--format', 'archive', '--out', zip)).status).toBe(0);
    const back = join(tmp, 'back');
    const imported = await spade('import', zip, '--out', back);
    expect(imported.status, imported.stderr).toBe(0);
    expect(lines(back, 'episodes.jsonl')).toEqual(lines(run, 'episodes.jsonl'));
    const verified = await spade('verify', '--run', back);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
  }, 120_000);
});
