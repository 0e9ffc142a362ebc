import type { EnvironmentRecord } from '../../core/records.ts';
import { utf8Length, toJsonLines, type HashText, type TextFile } from './files.ts';
import type { RunSetting } from '../../core/skills.ts';
import {
  checksumLine,
  settingOfRecord,
  lineCount,
  POOL_CHECKSUMS,
  POOL_GAMES_DIR,
  POOL_MANIFEST,
  poolFileName,
  poolFileText,
  referenceFileName,
  skillSlug,
} from './pool-format.ts';

/** One row of a pool's manifest.jsonl (the released pools' columns first, then this app's). */
export interface PoolManifestRow {
  game_id: string;
  file_name: string;
  /** The name SPADE's trainer would have given the game (`game_{epoch:05d}_{slot:03d}_{skill}.py`). */
  original_file_name: string;
  skill: string;
  /** SHA-256 of the game file's bytes, as in checksums.sha256. */
  sha256: string;
  line_count: number;
  byte_count: number;
  skill_name: string;
  env_id: string;
  epoch: number;
  hint: string | null;
  win_rate: number | null;
  regret: number | null;
  designer_reward: number | null;
  /** What the environment trains: a cognitive game or a tool-use task. */
  setting: RunSetting;
  /** The everyday domain of a tool-use task; null for a game or when none was recorded. */
  domain: string | null;
}

/** The environments a pool holds: the valid ones, in the order given. */
export function poolEnvironments(envs: readonly EnvironmentRecord[]): EnvironmentRecord[] {
  return envs.filter((env) => env.status === 'valid' && env.code.trim() !== '');
}

/**
 * Builds a SPADE environment pool: `games/game_000000.py`... (the trainer's header line, an
 * empty line, the code), `checksums.sha256` (`sha256sum` format over `games/...` paths, for
 * `sha256sum -c` at the pool's root) and `manifest.jsonl` (one row per game). Only valid
 * environments are written, numbered in the order given.
 */
export async function buildPoolFiles(envs: readonly EnvironmentRecord[], hashText: HashText): Promise<TextFile[]> {
  const games: TextFile[] = [];
  const rows: PoolManifestRow[] = [];
  let checksums = '';
  for (const [index, env] of poolEnvironments(envs).entries()) {
    const name = poolFileName(index);
    const path = `${POOL_GAMES_DIR}/${name}`;
    const text = poolFileText(env.code);
    const sha256 = await hashText(text);
    games.push({ path, text });
    checksums += checksumLine(sha256, path);
    rows.push({
      game_id: name.slice(0, -3),
      file_name: name,
      original_file_name: referenceFileName(env.epoch, env.slot, env.skill),
      skill: skillSlug(env.skill),
      sha256,
      line_count: lineCount(text),
      byte_count: utf8Length(text),
      skill_name: env.skill,
      env_id: env.id,
      epoch: env.epoch,
      hint: env.hint,
      win_rate: env.stats?.winRate ?? null,
      regret: env.stats?.regret ?? null,
      designer_reward: env.stats?.designerReward ?? null,
      setting: settingOfRecord(env),
      domain: env.domain ?? null,
    });
  }
  return [...games, { path: POOL_CHECKSUMS, text: checksums }, { path: POOL_MANIFEST, text: toJsonLines(rows) }];
}
