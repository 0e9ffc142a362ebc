import type { Config } from '../../core/config.ts';
import { hintRegret, mean, winRate } from '../../core/scoring/regret.ts';
import type { LiveEpoch, LivePlay, LiveSlot } from './live-epoch.ts';

/** Where work is happening in the live epoch: a slot, and the part of it that is changing. */
export interface ActiveWork {
  /** The slot's index in the epoch. */
  slot: number;
  /** The changing part: `attempt-N` (a design streaming or being validated), `hint` (streaming), or a play's `partId`. */
  part: string;
}

/** The id of a play's part of the live view (`play-<arm>-<rollout>-<index>`). */
export function playPartId(play: Pick<LivePlay, 'arm' | 'rollout' | 'index'>): string {
  return `play-${play.arm}-${play.rollout}-${play.index}`;
}

const running = (play: LivePlay) => play.return === null && play.error === null;

function activePart(slot: LiveSlot): string | null {
  const attempt = slot.attempts[slot.attempts.length - 1];
  if (slot.phase === 'designing' && attempt) return `attempt-${attempt.attempt}`;
  if (slot.hint === null && slot.hintStreaming !== '') return 'hint';
  const play = slot.plays
    .filter(running)
    .sort(
      (a, b) => a.rollout - b.rollout || (a.arm === b.arm ? 0 : a.arm === 'nohint' ? -1 : 1) || a.index - b.index,
    )[0];
  return play ? playPartId(play) : null;
}

/**
 * The work a lecture view follows: the first slot (in slot order) with a design, a hint or a play
 * under way, and that part of it; null between units (the view stays where it is).
 */
export function activeWork(live: LiveEpoch): ActiveWork | null {
  for (const slot of live.slots) {
    const part = activePart(slot);
    if (part !== null) return { slot: slot.slot, part };
  }
  return null;
}

/** One arm's plays so far. */
export interface ArmSoFar {
  done: number;
  planned: number;
  /** Mean return of the finished plays, or null before the first. */
  mean: number | null;
}

/** A slot's scores from the plays finished so far (the final ones come at the Score stage). */
export interface ScoresSoFar {
  /** Unhinted plays of the first rollout (r_nohint's plays). */
  noHint: ArmSoFar;
  hint: ArmSoFar;
  /** r_hint minus r_nohint so far, or null until both arms have a finished play. */
  regret: number | null;
  /** Mean return of every finished unhinted play kept (all rollouts), or null before the first. */
  winRate: number | null;
}

/**
 * A slot's scores from its finished plays, computed as the Score stage will compute them from all
 * of them (docs/method.md section 2): r_nohint over the first rollout's kept unhinted plays, r_hint over
 * the hinted plays, regret their difference, the win rate over every kept unhinted play.
 */
export function scoresSoFar(slot: LiveSlot, config: Pick<Config, 'playsPerArm' | 'hintPlays'>): ScoresSoFar {
  const finished = slot.plays.filter((p) => p.return !== null && !p.dropped);
  const first = finished.filter((p) => p.arm === 'nohint' && p.rollout === 0).map((p) => p.return!);
  const hinted = finished.filter((p) => p.arm === 'hint').map((p) => p.return!);
  const window = finished.filter((p) => p.arm === 'nohint').map((p) => p.return!);
  const hasHint = slot.hint !== null || slot.hintStreaming !== '';
  return {
    noHint: { done: first.length, planned: config.playsPerArm, mean: first.length === 0 ? null : mean(first) },
    hint: {
      done: hinted.length,
      planned: hasHint ? config.hintPlays : 0,
      mean: hinted.length === 0 ? null : mean(hinted),
    },
    regret: first.length === 0 || hinted.length === 0 ? null : hintRegret(hinted, first),
    winRate: window.length === 0 ? null : winRate(window),
  };
}

/** A vertical extent on the page, in CSS pixels from the top of the document. */
export interface Span {
  top: number;
  bottom: number;
}

/** Where things are when the followed work moves (document coordinates, CSS pixels). */
export interface FollowLayout {
  /** The page's scroll position now. */
  scrollY: number;
  /** The viewport's height. */
  viewport: number;
  /** The followed slot, and the part of it that is changing (null when it has no element). */
  slot: Span;
  part: Span | null;
  /** Height of the slot's heading, which sticks to the top while the slot scrolls under it. */
  heading: number;
  /**
   * The side panel (controls and score card) beside the work, sticky `stickyTop` below the top of
   * the viewport within `stage`, its grid; null when it is not beside the work (narrow screens).
   */
  side: { height: number; stickyTop: number; stage: Span } | null;
}

const MARGIN = 8;

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** The scroll positions that show the followed work: the whole slot when it fits, else its changing part below the sticky heading. */
function workRange(layout: FollowLayout): [number, number] {
  const { slot, part, viewport, heading } = layout;
  if (slot.bottom - slot.top <= viewport - MARGIN) return [slot.bottom - viewport, slot.top - MARGIN];
  if (!part) return [slot.top - MARGIN, slot.top - MARGIN];
  const top = part.top - heading - MARGIN;
  return part.bottom - top <= viewport ? [part.bottom - viewport, top] : [top, top];
}

/** The scroll positions that show the whole side panel, or null when none can (it is taller than the viewport). */
function sideRange(layout: FollowLayout): [number, number] | null {
  const side = layout.side;
  if (!side || side.stickyTop + side.height > layout.viewport) return null;
  return [side.stage.top + side.height - layout.viewport, side.stage.bottom - side.height];
}

/**
 * Where to scroll so the followed work and the side panel with the score card are both on screen,
 * moving as little as possible (the current position when it already shows both). When both
 * cannot show at once, the work wins.
 */
export function followScroll(layout: FollowLayout): number {
  const [workLow, workHigh] = workRange(layout);
  const side = sideRange(layout);
  const low = side ? Math.max(workLow, side[0]) : workLow;
  const high = side ? Math.min(workHigh, side[1]) : workHigh;
  return low <= high ? clamp(layout.scrollY, low, high) : clamp(layout.scrollY, workLow, workHigh);
}
