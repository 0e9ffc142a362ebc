import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  lineCount,
  parseChecksums,
  poolFileName,
  POOL_HEADER,
  referenceFileName,
  skillFromSlug,
  skillSlug,
  stripPoolHeader,
} from '../../src/formats/export/pool-format.ts';
import { buildPoolFiles } from '../../src/formats/export/pool-export.ts';
import { csvField, metricsCsv, rolloutsJsonl } from '../../src/formats/export/tabular-export.ts';
import { parseJsonLines, utf8Length } from '../../src/formats/export/files.ts';
import type { EnvironmentRecord, EpochMetrics } from '../../src/core/records.ts';

const sha = async (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function env(id: string, epoch: number, slot: number, status: 'valid' | 'rejected', code: string): EnvironmentRecord {
  return {
    id,
    epoch,
    slot,
    skill: 'Logical Deduction',
    difficulty: 'medium',
    docId: null,
    status,
    code,
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: status === 'valid' ? `hint ${id}` : null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats:
      status === 'valid'
        ? {
            rHint: 1,
            rNoHint: 0,
            regret: 1,
            winRate: 0.25,
            fractionWon: 0.25,
            designerReward: 0.7,
            designerAdvantage: 0,
            hung: false,
            designerGroupSize: 1,
            droppedPlays: 0,
            turnsToWin: null,
          }
        : null,
  };
}

describe('SPADE pool format (matches spade/core/utils/game_files.py and cmd/games/_download_gpt55_pool.sh)', () => {
  it('names, header and skill slugs as the reference writes them', () => {
    expect(POOL_HEADER).toBe('"""SPADE self-play generated game"""\n\n');
    expect(poolFileName(0)).toBe('game_000000.py');
    expect(poolFileName(7871)).toBe('game_007871.py');
    expect(referenceFileName(3, 2, 'Logical Deduction')).toBe('game_00003_002_logical_deduction.py');
    expect(skillSlug('Mathematical Reasoning')).toBe('mathematical_reasoning');
    expect(skillFromSlug('causal_inference')).toBe('Causal Inference');
    expect(skillFromSlug('state_modification')).toBe('State Modification');
    // The tool-use skills whose names title case would get wrong.
    expect(skillFromSlug('api_orchestration')).toBe('API Orchestration');
    expect(skillFromSlug('multi-step_workflows')).toBe('Multi-Step Workflows');
    expect(skillFromSlug(skillSlug('Tool Selection'))).toBe('Tool Selection');
    expect(stripPoolHeader(POOL_HEADER + 'x = 1\n')).toBe('x = 1\n');
    expect(stripPoolHeader('x = 1\n')).toBe('x = 1\n');
  });

  it('writes games/, checksums.sha256 in sha256sum text format and manifest.jsonl, valid environments only', async () => {
    const files = await buildPoolFiles(
      [
        env('e0000-s00', 0, 0, 'valid', 'class AEnv: pass\n'),
        env('e0000-s01', 0, 1, 'rejected', 'bad'),
        env('e0001-s00', 1, 0, 'valid', 'class BEnv: pass  # é\n'),
      ],
      sha,
    );
    expect(files.map((f) => f.path)).toEqual([
      'games/game_000000.py',
      'games/game_000001.py',
      'checksums.sha256',
      'manifest.jsonl',
    ]);
    expect(files[0]!.text).toBe('"""SPADE self-play generated game"""\n\nclass AEnv: pass\n');
    const h0 = await sha(files[0]!.text);
    const h1 = await sha(files[1]!.text);
    expect(files[2]!.text).toBe(`${h0}  games/game_000000.py\n${h1}  games/game_000001.py\n`);
    const rows = parseJsonLines(files[3]!.text, 'm').rows.map((r) => r.value);
    expect(rows[1]).toEqual({
      game_id: 'game_000001',
      file_name: 'game_000001.py',
      original_file_name: 'game_00001_000_logical_deduction.py',
      skill: 'logical_deduction',
      sha256: h1,
      line_count: 3,
      byte_count: Buffer.byteLength(files[1]!.text),
      skill_name: 'Logical Deduction',
      env_id: 'e0001-s00',
      epoch: 1,
      hint: 'hint e0001-s00',
      win_rate: 0.25,
      regret: 1,
      designer_reward: 0.7,
      setting: 'games',
      domain: null,
    });
  });

  it('parses sha256sum files (text and binary mode), resolving paths against the checksum file', () => {
    const h = 'a'.repeat(64);
    const { sums, badLines } = parseChecksums(
      `${h}  games/game_000000.py\n${'B'.repeat(64)} *./games/x.py\nnot a line\n\n`,
      'pool/checksums.sha256',
    );
    expect([...sums]).toEqual([
      ['pool/games/game_000000.py', h],
      ['pool/games/x.py', 'b'.repeat(64)],
    ]);
    expect(badLines).toEqual([3]);
  });

  it('counts lines and UTF-8 bytes exactly', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb'), lineCount('a\n\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
    for (const text of ['', 'abc', 'é', '€', '😀', 'a\u{10348}b', '\ud800x'])
      expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
  });
});

describe('rollouts JSONL and metrics CSV', () => {
  it('writes one rollout row per line with the trainer fields', () => {
    const text = rolloutsJsonl([
      {
        role: 'agent',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'x', weight: 1 },
        ],
        reward: 1,
        advantage: 0.5,
        group: 'g',
        envId: 'e',
        epoch: 0,
      },
    ]);
    expect(text).toBe(
      '{"role":"agent","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"x","weight":1}],"reward":1,"advantage":0.5,"group":"g","envId":"e","epoch":0}\n',
    );
  });

  it('writes metrics with timings and per-skill columns, quoting fields that need it', () => {
    const m = (epoch: number, perSkill: EpochMetrics['perSkill']): EpochMetrics => ({
      epoch,
      slots: 2,
      validEnvironments: 2,
      attempts: 3,
      validityRate: 2 / 3,
      meanRegret: 0.5,
      meanWinRate: 0.5,
      meanDesignerReward: 0.2,
      episodes: 8,
      droppedEpisodes: 0,
      quarantined: 0,
      designerScale: 4,
      promptTokens: 10,
      completionTokens: 20,
      perSkill,
    });
    const csv = metricsCsv(
      [m(0, { 'A, b': { environments: 2, meanRegret: 0.5, meanWinRate: 0.5 } }), m(1, {})],
      [{ epoch: 0, totalMs: 5, modelMs: 2, sandboxMs: 3 }],
    );
    const lines = csv.split('\n');
    expect(lines[0]).toBe(
      'epoch,slots,validEnvironments,attempts,validityRate,meanRegret,meanWinRate,meanDesignerReward,episodes,droppedEpisodes,quarantined,designerScale,promptTokens,completionTokens,totalMs,modelMs,sandboxMs,"environments:A, b","meanRegret:A, b","meanWinRate:A, b"',
    );
    expect(lines[1]).toBe(`1,2,2,3,${2 / 3},0.5,0.5,0.2,8,0,0,4,10,20,5,2,3,2,0.5,0.5`);
    expect(lines[2]).toBe(`2,2,2,3,${2 / 3},0.5,0.5,0.2,8,0,0,4,10,20,,,,,,`);
    expect(lines[3]).toBe('');
    const unscored = {
      ...m(2, { 'A, b': { environments: 0, meanRegret: 0, meanWinRate: 0 } }),
      attempts: 0,
      validityRate: 0,
      validEnvironments: 0,
      episodes: 0,
      meanRegret: 0,
      meanWinRate: 0,
      meanDesignerReward: 0,
    };
    expect(metricsCsv([unscored], []).split('\n')[1]).toBe('3,2,0,0,,,,,0,0,0,4,10,20,,,,,,');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('a\nb')).toBe('"a\nb"');
  });
});
