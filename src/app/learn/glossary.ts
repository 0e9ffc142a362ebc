import { MEMORY_CAPACITY, POSITIVE_BAND, POSITIVE_POOL, TOO_EASY, TOO_HARD } from '../../core/loop/memory.ts';
import { REWARD_VARIANTS } from '../../core/scoring/designer-reward.ts';
import { placeOfId } from '../../core/loop/epoch.ts';
import { PLATEAU_BAND, PLATEAU_RAMP } from '../../core/scoring/regret.ts';
import { FORMULAS, rewardFormula } from './formulas.ts';

/** One glossary entry: the method's own definition of a term. */
export interface GlossaryEntry {
  id: string;
  term: string;
  /** Words that name it in the app's texts (matched whole, any case). */
  aliases: readonly string[];
  definition: string;
  /** Further exact statements the glossary page lists under the definition. */
  details?: readonly string[];
}

const [low, high] = PLATEAU_BAND;
// Sums of decimal constants, written as they read (0.4 - 0.25 is 0.15, not 0.15000000000000002).
const decimal = (x: number) => Number(x.toFixed(6));

/** The terms of the method's formulas, defined as `src/core/scoring` and `src/core/loop/memory.ts` compute them. */
export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    id: 'env-id',
    term: 'environment id',
    aliases: ['environment id'],
    definition: `An environment's id, such as e0001-s02: "e" and the epoch, "s" and the slot, counted from 0 as the run's files count them, so e0001-s02 is ${placeOfId('e0001-s02')} in the app's words, which count from 1. Ids never change: every seed of a slot derives from its id, and runs, archives and comparisons find environments by it.`,
  },
  {
    id: 'episode-return',
    term: 'episode return',
    aliases: ['episode return', 'return of an episode'],
    definition: FORMULAS.episodeReturn,
  },
  { id: 'r-nohint', term: 'r_nohint', aliases: ['r_nohint'], definition: FORMULAS.rNoHint },
  { id: 'r-hint', term: 'r_hint', aliases: ['r_hint'], definition: FORMULAS.rHint },
  { id: 'regret', term: 'regret', aliases: ['regret'], definition: FORMULAS.regret },
  { id: 'win-rate', term: 'win rate', aliases: ['win rate'], definition: FORMULAS.winRate },
  {
    id: 'plateau',
    term: 'plateau',
    aliases: ['plateau'],
    definition: `plateau(w) = 1 on [${low}, ${high}]; below ${low} it is max(0, 1 - (${low} - w) / ${PLATEAU_RAMP}), above ${high} it is max(0, 1 - (w - ${high}) / ${PLATEAU_RAMP}); so 0 at w <= ${decimal(low - PLATEAU_RAMP)} or w >= ${decimal(high + PLATEAU_RAMP)}.`,
  },
  {
    id: 'designer-reward',
    term: 'designer reward',
    aliases: ['designer reward'],
    definition: `What the designer earns for one environment. A run picks one variant: ${REWARD_VARIANTS.join(', ')} (the paper uses blend).`,
    details: REWARD_VARIANTS.map(rewardFormula),
  },
  {
    id: 'blend',
    term: 'blend',
    aliases: ['blend'],
    definition: `${rewardFormula('blend')} The paper's designer reward: regret up to a cap, plus the plateau of the win rate.`,
  },
  {
    id: 'advantage',
    term: 'advantage',
    aliases: ['agent advantage', 'advantage', 'advantages'],
    definition: FORMULAS.agentAdvantage,
  },
  {
    id: 'grpo-group',
    term: 'GRPO group',
    aliases: ['GRPO group', 'GRPO'],
    definition:
      'The plays an agent advantage is centred in: the kept unhinted plays of one environment in one rollout. Hinted plays are in no group and are never trained on. Designs are grouped by skill within an epoch.',
  },
  {
    id: 'designer-advantage',
    term: 'designer advantage',
    aliases: ['designer advantage'],
    definition: FORMULAS.designerAdvantage,
  },
  {
    id: 'memory',
    term: 'memory',
    aliases: ['memory'],
    definition: `The designer's memory: up to ${MEMORY_CAPACITY} environments (oldest dropped), each with the share of its first rollout's kept unhinted plays won and its regret. Each designer prompt shows two of its skill with win rate in [${POSITIVE_BAND[0]}, ${POSITIVE_BAND[1]}], drawn from the ${POSITIVE_POOL} with the highest regret, with their code, and names one with win rate above ${TOO_EASY} or below ${TOO_HARD} to avoid.`,
  },
];

/** The entry with this id; throws on an unknown id (a programming error). */
export function glossaryEntry(id: string): GlossaryEntry {
  const entry = GLOSSARY.find((e) => e.id === id);
  if (!entry) throw new Error(`No glossary entry "${id}"; known: ${GLOSSARY.map((e) => e.id).join(', ')}.`);
  return entry;
}

/** The element id of an entry on the Learn page; a link to `#` + it opens the entry. */
export function glossaryAnchor(id: string): string {
  return `glossary-${id}`;
}

/** The entry a location hash points at (`#glossary-<id>`), or null. */
export function glossaryFromHash(hash: string): GlossaryEntry | null {
  const match = /^#glossary-([a-z-]+)$/.exec(hash);
  return match ? (GLOSSARY.find((e) => e.id === match[1]) ?? null) : null;
}

/** A piece of text, naming a glossary entry or not. */
export interface GlossSegment {
  text: string;
  term: string | null;
}

const ALIASES = GLOSSARY.flatMap((e) => e.aliases.map((alias) => ({ alias: alias.toLowerCase(), id: e.id }))).sort(
  (a, b) => b.alias.length - a.alias.length,
);
const ALIAS_PATTERN = new RegExp(
  `(?<![\\w])(${ALIASES.map((a) => a.alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w])`,
  'gi',
);

/** Splits a text into plain pieces and terms; each entry is marked at its first mention only, the longest name winning. */
export function glossSegments(text: string): GlossSegment[] {
  const segments: GlossSegment[] = [];
  const used = new Set<string>();
  let at = 0;
  for (const match of text.matchAll(ALIAS_PATTERN)) {
    const id = ALIASES.find((a) => a.alias === match[0].toLowerCase())!.id;
    if (used.has(id)) continue;
    used.add(id);
    if (match.index > at) segments.push({ text: text.slice(at, match.index), term: null });
    segments.push({ text: match[0], term: id });
    at = match.index + match[0].length;
  }
  if (at < text.length) segments.push({ text: text.slice(at), term: null });
  return segments;
}
