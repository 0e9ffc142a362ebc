// A run's numbers recomputed under the reference's rules where the run used a tab difference
// (docs/method.md section 5, "What it cost your run"): the stored plays are scored again with the
// run's own settings and with each recomputable difference switched to the reference's value, and
// every figure the two disagree on is listed. Nothing is played again.
import { withPreset, type Config } from '../config.ts';
import type { EnvironmentRecord, Episode } from '../records.ts';
import { rememberEnvironments, type MemoryRecord } from '../loop/memory.ts';
import { planSlotMemory } from '../loop/slot-memory-plan.ts';
import { isMalformedCall } from '../loop/play-tool-episode.ts';
import { parseToolReply } from '../prompts/tool-call-parse.ts';
import { scoreEpoch, type EpochScores } from './score-epoch.ts';
import type { SkillAverages } from './designer-reward.ts';
import { playKey, playsUnderReference } from './reference-episodes.ts';
import { touchedPlays, type TouchedPlays } from './reference-reads.ts';
import { RECOMPUTABLE_KNOBS, ruleDifferences, type RecomputableKnob, type RuleDifference } from './reference-rules.ts';

/** One epoch of a run as its files store it. */
export interface StoredEpoch {
  epoch: number;
  environments: readonly EnvironmentRecord[];
  episodes: readonly Episode[];
}

/** The figures compared, in the order they are reported. */
export const QUANTITIES = [
  'play return',
  'agent advantage',
  'agent rows',
  'reply weights',
  'environment status',
  'r_nohint',
  'r_hint',
  'regret',
  'win rate',
  'hung',
  'designer reward',
  'designer advantage',
  'designer rows',
  'designer scale',
  'epoch mean win rate',
  'epoch mean regret',
  'epoch mean designer reward',
  'skill average (slow)',
  'memory win rate',
  'memory regret',
  'memory selection',
] as const;

/** A figure the recomputation compares. */
export type Quantity = (typeof QUANTITIES)[number];

/** A figure's value; null where it does not exist (a dropped play's advantage, a quarantined environment's stats). */
export type FigureValue = number | string | boolean | null;

/** One figure that differs: where it is, the run's value and the value under the reference's rules. */
export interface FigureChange {
  epoch: number;
  /** The play, environment, skill, memory record or slot (`epoch` for a whole epoch's figure). */
  id: string;
  run: FigureValue;
  reference: FigureValue;
}

/** How one quantity compares: how many figures were compared and those that differ. */
export interface QuantityTally {
  quantity: Quantity;
  compared: number;
  changes: FigureChange[];
}

/** A difference from the reference preset and, when recomputed, what it changed in this run. */
export interface DifferenceCost extends RuleDifference {
  /** Per quantity, the figures that differ with only this knob switched (recomputed differences only). */
  tallies: QuantityTally[];
  /** For a difference that needs a new run, the stored plays it touched, where the files can tell. */
  touched?: TouchedPlays;
}

/** The whole comparison of a run with the reference's rules. */
export interface ReferenceComparison {
  differences: DifferenceCost[];
  /** Every recomputable reference rule switched at once (also on a run at the reference preset, where it must change nothing). */
  combined: QuantityTally[];
  /** Plays the recomputation left as they ran because the reference would have played them anew. */
  needReplay: string[];
}

const TOLERANCE = 1e-9;
const same = (a: FigureValue, b: FigureValue) =>
  typeof a === 'number' && typeof b === 'number' ? Math.abs(a - b) <= TOLERANCE : a === b;

/** Every figure of a scored run: per quantity, per `epoch|id`. */
type Figures = Map<Quantity, Map<string, FigureValue>>;

interface RunRules {
  config: Config;
  /** Plays rewritten under the reference's failure rule. */
  referencePlays: boolean;
  /** Unreadable calls flagged again from the stored replies (for runs recorded without the masks). */
  flagCalls: boolean;
}

// A stored environment as it was before scoring, so it can be scored again under other rules.
const unscored = (env: EnvironmentRecord): EnvironmentRecord =>
  env.status === 'quarantined' ? { ...env, status: 'valid', stats: null } : { ...env, stats: null };

function withCallFlags(e: Episode, replyAids: boolean): Episode {
  const turns = e.turns.map((turn) => {
    const { malformedCall: _flag, ...rest } = turn;
    return isMalformedCall(turn.reply, parseToolReply(turn.reply, replyAids))
      ? { ...rest, malformedCall: true as const }
      : rest;
  });
  return { ...e, turns };
}

function playsOf(stored: StoredEpoch, rules: RunRules, needReplay: string[]): Episode[] {
  let episodes = [...stored.episodes];
  if (rules.referencePlays) {
    const plays = playsUnderReference(episodes);
    needReplay.push(...plays.needReplay);
    episodes = plays.episodes;
  }
  return rules.flagCalls ? episodes.map((e) => withCallFlags(e, rules.config.replyAids)) : episodes;
}

interface ScoredEpoch {
  epoch: number;
  scores: EpochScores;
  /** The designer memory after this epoch. */
  memory: MemoryRecord[];
}

function scoreRun(epochs: readonly StoredEpoch[], rules: RunRules, needReplay: string[]): ScoredEpoch[] {
  let averages: Record<string, SkillAverages> = {};
  let memory: MemoryRecord[] = [];
  return epochs.map((stored) => {
    const scores = scoreEpoch(
      stored.epoch,
      stored.environments.map(unscored),
      playsOf(stored, rules, needReplay),
      rules.config,
      averages,
    );
    averages = scores.skillAverages;
    memory = rememberEnvironments(memory, scores.memoryRecords);
    return { epoch: stored.epoch, scores, memory };
  });
}

const ENV_FIGURES = [
  ['r_nohint', 'rNoHint'],
  ['r_hint', 'rHint'],
  ['regret', 'regret'],
  ['win rate', 'winRate'],
  ['hung', 'hung'],
  ['designer reward', 'designerReward'],
  ['designer advantage', 'designerAdvantage'],
] as const;

function figuresOf(run: readonly ScoredEpoch[], config: Config, designs: boolean): Figures {
  const figures: Figures = new Map(QUANTITIES.map((q) => [q, new Map()]));
  const put = (q: Quantity, epoch: number, id: string, value: FigureValue) =>
    figures.get(q)!.set(`${epoch}|${id}`, value);
  for (const { epoch, scores, memory } of run) {
    const scored = new Set(scores.environments.filter((env) => env.stats).map((env) => env.id));
    const final = new Map<string, Episode>();
    for (const e of scores.episodes) final.set(playKey(e), e);
    const agents = scores.episodes.filter((e) => e.arm === 'nohint' && !e.dropped && scored.has(e.envId));
    const agentRows = scores.rollouts.filter((row) => row.role === 'agent');
    for (const [key, e] of final) put('play return', epoch, key, e.dropped ? 'dropped' : e.return);
    agents.forEach((e, i) => {
      put('agent advantage', epoch, playKey(e), e.advantage);
      const weights = (agentRows[i]?.messages ?? []).filter((m) => m.role === 'assistant').map((m) => m.weight);
      put('reply weights', epoch, e.id, weights.join(','));
    });
    put('agent rows', epoch, 'epoch', agentRows.length);
    put('designer rows', epoch, 'epoch', scores.rollouts.length - agentRows.length);
    for (const env of scores.environments.filter((env) => env.status !== 'rejected')) {
      put('environment status', epoch, env.id, env.status);
      for (const [q, field] of ENV_FIGURES) put(q, epoch, env.id, env.stats ? env.stats[field] : null);
    }
    put('designer scale', epoch, 'epoch', scores.metrics.designerScale);
    put('epoch mean win rate', epoch, 'epoch', scores.metrics.meanWinRate);
    put('epoch mean regret', epoch, 'epoch', scores.metrics.meanRegret);
    put('epoch mean designer reward', epoch, 'epoch', scores.metrics.meanDesignerReward);
    for (const [skill, averages] of Object.entries(scores.skillAverages))
      put('skill average (slow)', epoch, skill, averages.slow);
    for (const record of memory) {
      put('memory win rate', epoch, record.envId, record.winRate);
      put('memory regret', epoch, record.envId, record.regret);
    }
    if (designs && config.useMemory) {
      for (const plan of planSlotMemory(config, memory, epoch + 1)) {
        const shown = plan.selection
          ? [
              ...plan.selection.positives.map((r) => r.envId),
              `negative ${plan.selection.negative?.record.envId ?? 'none'}`,
            ]
          : [];
        put('memory selection', epoch + 1, plan.envId, shown.join(' '));
      }
    }
  }
  return figures;
}

// Reply weights are compared per stored record, only where both sides train it (a crashed first attempt kept in place of its retry is another record; rows on one side only count under agent rows).
function tally(run: Figures, reference: Figures): QuantityTally[] {
  return QUANTITIES.map((quantity) => {
    const a = run.get(quantity)!;
    const b = reference.get(quantity)!;
    const keys =
      quantity === 'reply weights' ? [...a.keys()].filter((k) => b.has(k)) : [...new Set([...a.keys(), ...b.keys()])];
    const changes: FigureChange[] = [];
    for (const key of keys) {
      const [x, y] = [a.get(key) ?? null, b.get(key) ?? null];
      if (same(x, y)) continue;
      const at = key.indexOf('|');
      changes.push({ epoch: Number(key.slice(0, at)), id: key.slice(at + 1), run: x, reference: y });
    }
    return { quantity, compared: keys.length, changes };
  });
}

// The run's settings with `knobs` at the reference's value; their rules are applied to the stored plays even when the run already used them, so a run at the reference preset is checked against them too.
function rulesWith(config: Config, knobs: readonly RecomputableKnob[]): RunRules {
  const reference = withPreset(config, 'reference');
  const switched = { ...config };
  for (const knob of knobs) switched[knob] = reference[knob];
  return {
    config: switched,
    referencePlays: knobs.includes('crashesLose'),
    flagCalls: knobs.includes('toolUseMasks') && config.setting === 'tool_use',
  };
}

/**
 * Scores a run's stored epochs (every epoch from the first, in order) with its own settings and
 * under the reference's rules, and lists what differs: for each knob that differs from the
 * reference preset, the figures it changes when it alone is switched (when it can be recomputed),
 * and every recomputable rule switched at once.
 */
export function compareWithReference(config: Config, epochs: readonly StoredEpoch[]): ReferenceComparison {
  const designs = epochs.some((stored) => stored.environments.some((env) => env.attempts.length > 0));
  const asRun = figuresOf(scoreRun(epochs, rulesWith(config, []), []), config, designs);
  const costOf = (knobs: readonly RecomputableKnob[], needReplay: string[]) =>
    tally(asRun, figuresOf(scoreRun(epochs, rulesWith(config, knobs), needReplay), config, designs));
  const touched = touchedPlays(
    config,
    withPreset(config, 'reference'),
    epochs.flatMap((stored) => stored.episodes),
  );
  const differences = ruleDifferences(config).map((d) => ({
    ...d,
    tallies: d.status === 'recomputed' ? costOf([d.knob as RecomputableKnob], []) : [],
    ...(d.status === 'replay' && touched[d.knob] ? { touched: touched[d.knob] } : {}),
  }));
  const needReplay: string[] = [];
  return { differences, combined: costOf(RECOMPUTABLE_KNOBS, needReplay), needReplay };
}
