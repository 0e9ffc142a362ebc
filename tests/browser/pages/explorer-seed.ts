// Test-only page module (tests/browser/pages/explorer-seed.html): writes a big run into the app's
// own IndexedDB database (same origin, same name), so the app opened afterwards at '/' shows it.
// The run has `epochs` epochs of `slots` synthetic environments (every eighth rejected with a real
// verdict's shape, scores spread over [0, 1] and [-1, 1]); the featured environments built in
// Node (real code, real episodes) fill the first slots of the last epoch. They are handed over
// apart (spadeExplorerFeatured), so that Node builds them while the earlier epochs are written.
// The rows are the ones commitEpoch writes (idb-rows' epochRows: records, explorer and chart
// summaries), written 50 epochs to a transaction so seeding stays cheap; the store's own commit
// is tested elsewhere.
import { openIndexedDbRunStore, type IndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { epochRows } from '../../../src/adapters/store/idb-rows.ts';
import { hashText } from '../../../src/adapters/store/sha256.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import type { MemoryRecord } from '../../../src/core/loop/memory.ts';
import type { EnvironmentRecord, Episode, EpochMetrics } from '../../../src/core/records.ts';
import type { RunMeta } from '../../../src/core/ports/store-port.ts';

/** What to seed (the featured environments come apart, through spadeExplorerFeatured). */
export interface SeedRequest {
  meta: RunMeta;
  epochs: number;
  slots: number;
}

/** The featured environments of the last epoch and their episodes, built in Node. */
export interface Featured {
  environments: EnvironmentRecord[];
  episodes: Episode[];
}

let featuredArrived: (featured: Featured) => void = () => {};
/** The featured environments, once spadeExplorerFeatured has handed them over. */
const featuredGiven = new Promise<Featured>((resolve) => (featuredArrived = resolve));

/** What was seeded, counted by the generator (the explorer's counts are checked against it). */
export interface SeedSummary {
  environments: number;
  perSkill: Record<string, number>;
  rejected: number;
  rejectedPerSkill: Record<string, number>;
  memory: string[];
  ms: number;
}

const CODE = (n: number) =>
  `class Synthetic${n}Env:\n    """Synthetic environment ${n} for the explorer test."""\n\n    def __init__(self, max_turns=12):\n        self.max_turns = max_turns\n        self.turn_count = 0\n\n    def reset(self, seed=None):\n        self.turn_count = 0\n        return "Say \\\\boxed{${n % 10}}.", {}\n\n    def step(self, action):\n        self.turn_count += 1\n        won = "${n % 10}" in action\n        return ("Done." if won else "Again."), (1.0 if won else 0.0), won, self.turn_count >= self.max_turns, {}\n\n    def solution(self):\n        return "${n % 10}"\n`;

function syntheticEnv(meta: RunMeta, epoch: number, slot: number): EnvironmentRecord {
  const n = epoch * 1000 + slot;
  const r = ((n * 2654435761) >>> 0) / 2 ** 32;
  const skills = meta.config.skills;
  const rejected = (epoch * 7 + slot) % 8 === 7;
  const code = CODE(n);
  return {
    id: `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`,
    epoch,
    slot,
    skill: skills[(epoch * meta.config.slotsPerEpoch + slot) % skills.length]!,
    difficulty: 'medium',
    docId: null,
    status: rejected ? 'rejected' : 'valid',
    code,
    attempts: [
      {
        attempt: 0,
        repair: false,
        messages: [{ role: 'user', content: `Design an environment (synthetic prompt ${n}).` }],
        reply: `\`\`\`python\n${code}\`\`\``,
        code,
        usage: { promptTokens: 900, completionTokens: 400 },
        validation: rejected
          ? {
              ok: false,
              stage: 'probe',
              code: 'step_bad_return',
              message:
                'Expected step() to return a 5-tuple (observation, reward, terminated, truncated, info). Saw a tuple of 3 items (str, float, bool). Fix: return all five values on every path, including invalid actions.',
              className: `Synthetic${n}Env`,
              repairedLines: [],
            }
          : { ok: true, stage: null, code: null, message: null, className: `Synthetic${n}Env`, repairedLines: [] },
      },
    ],
    memoryShown: { positives: [], negative: null },
    hint: rejected ? null : `Say the digit ${n % 10}.`,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: rejected
      ? null
      : {
          rHint: 1,
          rNoHint: r,
          regret: Math.round((2 * r - 1) * 1000) / 1000,
          winRate: Math.round(((r * 7) % 1) * 1000) / 1000,
          fractionWon: (r * 7) % 1,
          designerReward: Math.round(((r * 13) % 1) * 1000) / 1000,
          designerAdvantage: 0,
          hung: false,
          designerGroupSize: 1,
          droppedPlays: 0,
          turnsToWin: 1,
        },
  };
}

function metrics(epoch: number, envs: EnvironmentRecord[]): EpochMetrics {
  return {
    epoch,
    slots: envs.length,
    validEnvironments: envs.filter((e) => e.stats).length,
    attempts: envs.length,
    validityRate: 0,
    meanRegret: 0,
    meanWinRate: 0,
    meanDesignerReward: 0,
    episodes: 0,
    droppedEpisodes: 0,
    quarantined: 0,
    designerScale: 1,
    promptTokens: 0,
    completionTokens: 0,
    perSkill: {},
  };
}

/** Writes the rows of consecutive epochs as commitEpoch would, in one transaction, and moves the run's epochsCompleted past them. */
async function writeEpochs(store: IndexedDbRunStore, meta: RunMeta, results: EpochResult[]): Promise<void> {
  const rows = await Promise.all(
    results.map(async (r) => epochRows(meta.id, r, await Promise.all(r.environments.map((env) => hashText(env.code))))),
  );
  const tx = store.db.transaction(['runs', 'epochs', 'environments', 'envSummaries', 'episodes', 'state'], 'readwrite');
  for (const r of rows) {
    void tx.objectStore('epochs').put(r.epoch);
    for (const row of r.environments) void tx.objectStore('environments').put(row);
    for (const row of r.summaries) void tx.objectStore('envSummaries').put(row);
    for (const row of r.episodes) void tx.objectStore('episodes').put(row);
  }
  void tx.objectStore('state').put(rows[rows.length - 1]!.state);
  void tx.objectStore('runs').put({ ...meta, epochsCompleted: results[results.length - 1]!.epoch + 1 });
  await tx.done;
}

async function seed(request: SeedRequest): Promise<SeedSummary> {
  const started = performance.now();
  const store = await openIndexedDbRunStore();
  const { meta, epochs, slots } = request;
  await store.createRun(meta);
  const perSkill: Record<string, number> = {};
  let rejected = 0;
  const rejectedPerSkill: Record<string, number> = {};
  let memory: MemoryRecord[] = [];
  const batch: EpochResult[] = [];
  for (let epoch = 0; epoch < epochs; epoch++) {
    const last = epoch === epochs - 1;
    const featured = last ? await featuredGiven : null;
    const environments = Array.from(
      { length: slots },
      (_, slot) => featured?.environments[slot] || syntheticEnv(meta, epoch, slot),
    );
    for (const env of environments) {
      perSkill[env.skill] = (perSkill[env.skill] ?? 0) + 1;
      if (env.status === 'rejected') {
        rejected++;
        rejectedPerSkill[env.skill] = (rejectedPerSkill[env.skill] ?? 0) + 1;
      }
      if (env.stats)
        memory.push({
          envId: env.id,
          skill: env.skill,
          code: env.code.slice(0, 2000),
          winRate: env.stats.fractionWon,
          regret: env.stats.regret,
          epoch,
        });
    }
    memory = memory.slice(-200);
    const result: EpochResult = {
      epoch,
      environments,
      episodes: featured?.episodes ?? [],
      rollouts: [],
      evaluations: [],
      metrics: metrics(epoch, environments),
      timings: { epoch, totalMs: 1000, modelMs: 800, sandboxMs: 200 },
      nextState: { epoch: epoch + 1, memory: [...memory], skillAverages: {} },
    };
    batch.push(result);
    if (batch.length === 50 || last) await writeEpochs(store, meta, batch.splice(0));
  }
  store.close();
  return {
    environments: epochs * slots,
    perSkill,
    rejected,
    rejectedPerSkill,
    memory: memory.map((m) => m.envId),
    ms: performance.now() - started,
  };
}

declare global {
  interface Window {
    spadeExplorerSeed: (request: SeedRequest) => Promise<SeedSummary>;
    spadeExplorerFeatured: (featured: Featured) => void;
  }
}

window.spadeExplorerSeed = seed;
window.spadeExplorerFeatured = (featured) => featuredArrived(featured);
