import { describe, expect, it } from 'vitest';
import { parseSweepGrid, sweepCells, SweepGridError } from '../../src/analysis/sweep-grid.ts';
import { shellWord, sweepCommands, sweepRunArgs } from '../../src/analysis/sweep-commands.ts';

describe('parseSweepGrid', () => {
  it('reads flags, config keys and aliases, with each value as a config patch and its run flags', () => {
    const grid = parseSweepGrid(
      ' reward=blend,regret ; memory=on,off;slots=2,8;difficulty=hard;useCorpus=off;eval-every=1',
    );
    expect(grid.map((a) => [a.name, a.key, a.values.map((v) => v.text)])).toEqual([
      ['reward', 'reward', ['blend', 'regret']],
      ['memory', 'useMemory', ['on', 'off']],
      ['slots', 'slotsPerEpoch', ['2', '8']],
      ['difficulty', 'difficulty', ['hard']],
      ['useCorpus', 'useCorpus', ['off']],
      ['eval-every', 'evalEvery', ['1']],
    ]);
    expect(grid[1]!.values.map((v) => [v.patch, v.args])).toEqual([
      [{ useMemory: true }, []],
      [{ useMemory: false }, ['--no-memory']],
    ]);
    expect(grid[2]!.values[1]).toEqual({ text: '8', patch: { slotsPerEpoch: 8 }, args: ['--slots', '8'] });
    expect(parseSweepGrid('repair=on;playbook=off').flatMap((a) => a.values.map((v) => v.args))).toEqual([
      ['--repair'],
      ['--no-playbook'],
    ]);
    expect(parseSweepGrid('skills=logical deduction+optimization').at(0)!.values[0]!.patch).toEqual({
      skills: ['Logical Deduction', 'Optimization'],
    });
  });

  it.each([
    ['', /the grid is empty/],
    ['reward', /expected key=value,value/],
    ['vibes=1,2', /unknown grid key "vibes"/],
    ['no-memory=on', /unknown grid key "no-memory"/],
    ['seed=1,2', /--seeds/],
    ['agent=0.2', /agent cannot be swept: it has no command-line flag/],
    ['reward=blend,vibes', /reward=vibes: expected one of blend, regret, solve_rate, learning_potential/],
    ['memory=yes', /memory=yes: expected one of on, off/],
    ['slots=0', /slots=0: slotsPerEpoch must be an integer from 1 to 256, got 0/],
    ['slots=2.5', /slots=2.5: expected a whole number/],
    ['slots=2,,4', /expected a comma-separated list/],
    ['slots=2,2', /a value is repeated/],
    ['slots=2;slotsPerEpoch=4', /slotsPerEpoch: the grid sets slotsPerEpoch twice/],
    ['difficulty=brutal', /expected one of adaptive, easy, medium, hard/],
    ['skills=juggling', /unknown skill "juggling"/],
  ])('refuses %j', (text, message) => {
    expect(() => parseSweepGrid(text)).toThrow(SweepGridError);
    expect(() => parseSweepGrid(text)).toThrow(message);
  });
});

describe('sweepCells', () => {
  it('takes the cartesian product, first axis slowest, seeds innermost, with file-safe names', () => {
    const cells = sweepCells(parseSweepGrid('reward=blend,learning_potential;memory=on,off'), [1, 2]);
    expect(cells.map((c) => c.name)).toEqual([
      'reward-blend_memory-on_seed-1',
      'reward-blend_memory-on_seed-2',
      'reward-blend_memory-off_seed-1',
      'reward-blend_memory-off_seed-2',
      'reward-learning-potential_memory-on_seed-1',
      'reward-learning-potential_memory-on_seed-2',
      'reward-learning-potential_memory-off_seed-1',
      'reward-learning-potential_memory-off_seed-2',
    ]);
    expect(cells[6]).toEqual({
      name: 'reward-learning-potential_memory-off_seed-1',
      seed: 1,
      values: [
        { axis: 'reward', value: 'learning_potential' },
        { axis: 'memory', value: 'off' },
      ],
      patch: { reward: 'learning_potential', useMemory: false, seed: 1 },
      args: ['--reward', 'learning_potential', '--no-memory'],
    });
  });

  it('sets the hinted plays with the plays, as spade run does, unless the grid sets them', () => {
    expect(sweepCells(parseSweepGrid('plays=6'), [3])[0]!.patch).toEqual({ playsPerArm: 6, hintPlays: 6, seed: 3 });
    expect(sweepCells(parseSweepGrid('plays=6;hint-plays=2'), [3])[0]!.patch).toEqual({
      playsPerArm: 6,
      hintPlays: 2,
      seed: 3,
    });
  });

  it('refuses no seeds, repeated seeds, negative seeds and names that would clash', () => {
    const grid = parseSweepGrid('reward=blend');
    expect(() => sweepCells(grid, [])).toThrow('expected at least one seed');
    expect(() => sweepCells(grid, [1, 1])).toThrow('a seed is repeated');
    expect(() => sweepCells(grid, [-1])).toThrow('non-negative integers');
    expect(() =>
      sweepCells(parseSweepGrid('skills=logical deduction+optimization,logical-deduction+optimization'), [1]),
    ).toThrow('two cells would share the directory skills-logical-deduction-optimization_seed-1');
  });
});

describe('sweepCommands', () => {
  const cells = sweepCells(parseSweepGrid('reward=blend,regret;memory=off'), [1]);
  const options = {
    model: 'openai:http://localhost:8080/v1#qwen 4b',
    epochs: 3,
    out: 'sweeps/a/',
    shared: ['--slots', '8'],
  };

  it('gives the run arguments of a cell: model, epochs, its folder and seed, the shared flags, then its own', () => {
    expect(sweepRunArgs(cells[1]!, options)).toEqual([
      'run',
      '--model',
      'openai:http://localhost:8080/v1#qwen 4b',
      '--epochs',
      '3',
      '--out',
      'sweeps/a/reward-regret_memory-off_seed-1',
      '--seed',
      '1',
      '--slots',
      '8',
      '--reward',
      'regret',
      '--no-memory',
    ]);
  });

  it('writes one shell line per cell, quoting words the shell would change', () => {
    expect(sweepCommands(cells, options)).toEqual([
      "npm run --silent spade -- run --model 'openai:http://localhost:8080/v1#qwen 4b' --epochs 3 --out sweeps/a/reward-blend_memory-off_seed-1 --seed 1 --slots 8 --reward blend --no-memory",
      "npm run --silent spade -- run --model 'openai:http://localhost:8080/v1#qwen 4b' --epochs 3 --out sweeps/a/reward-regret_memory-off_seed-1 --seed 1 --slots 8 --reward regret --no-memory",
    ]);
    expect([
      shellWord("it's"),
      shellWord(''),
      shellWord('#x'),
      shellWord('a#b'),
      shellWord('Logical Deduction,Planning'),
    ]).toEqual(["'it'\\''s'", "''", "'#x'", 'a#b', "'Logical Deduction,Planning'"]);
  });
});
