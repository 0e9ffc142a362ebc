// The storage limits on episode text (docs/method.md section 2, "What is stored"): what is cut,
// how it is marked, and that no number an epoch computes depends on it.
import { describe, expect, it } from 'vitest';
import type { Episode } from '../../../src/core/records.ts';
import {
  CLIP_MARKER,
  clipEpisode,
  clipEpochEpisodes,
  clipText,
  EPISODE_TEXT_CHARS,
  EPOCH_TEXT_CHARS,
  episodeTextSize,
  fairCap,
  STORED_STRING_CHARS,
  storedStep,
  writtenLength,
} from '../../../src/core/loop/stored-episode.ts';

/** An episode of `turns` turns whose every observation is `observation`, lost (return 0) unless the last turn terminates. */
function episode(id: string, observation: string, turns: number): Episode {
  return {
    id,
    envId: 'e0000-s00',
    epoch: 0,
    rollout: 0,
    arm: 'nohint',
    index: 0,
    seed: 1,
    firstObservation: observation,
    messages: [
      { role: 'user', content: `Observation: ${observation}` },
      ...Array.from({ length: turns }, (_, i) => [
        { role: 'assistant' as const, content: `reply ${i}` },
        { role: 'user' as const, content: observation },
      ]).flat(),
    ],
    turns: Array.from({ length: turns }, (_, i) => ({
      reply: `reply ${i}`,
      action: `${i}`,
      observation,
      reward: i === turns - 1 ? 1 : 0.25,
      terminated: i === turns - 1,
      truncated: false,
    })),
    return: 1,
    error: null,
    dropped: false,
    retried: false,
    usage: { promptTokens: 10, completionTokens: 5 },
    advantage: 0,
  };
}

const FLOOD = '\u0001'.repeat(100_000);

describe('written lengths', () => {
  it('count what JSON.stringify writes inside the quotes', () => {
    for (const text of [
      'plain',
      'quote " and \\ back',
      'tab\tnew\nline',
      FLOOD.slice(0, 10),
      '\u{1F600} é',
      '\ud800 lone',
    ]) {
      expect(writtenLength(text), JSON.stringify(text)).toBe(JSON.stringify(text).length - 2);
    }
  });

  it('count U+0085, U+2028 and U+2029 as escaped, as a JSON Lines writer that keeps lines whole writes them', () => {
    expect(writtenLength('\u0085\u2028\u2029')).toBe(18);
  });
});

describe('clipText and fairCap', () => {
  it('keeps a text that fits, cuts one that does not to the limit with the marker, never inside a surrogate pair', () => {
    expect(clipText('short', 100)).toBe('short');
    const cut = clipText('\u{1F600}'.repeat(1000), 200);
    expect(cut.endsWith(CLIP_MARKER)).toBe(true);
    expect(writtenLength(cut)).toBeLessThanOrEqual(200);
    expect(cut.slice(0, -CLIP_MARKER.length)).toBe('\u{1F600}'.repeat(cut.slice(0, -CLIP_MARKER.length).length / 2));
  });

  it('fairCap cuts the largest to one size and keeps the small ones whole', () => {
    expect(fairCap([1, 2, 100, 100], 53)).toBe(25);
    expect(fairCap([1, 2, 100, 100], 1000)).toBe(Number.POSITIVE_INFINITY);
    expect(fairCap([50, 50], 60)).toBe(30);
  });
});

describe('clipEpisode', () => {
  it('keeps an ordinary episode as it is, unflagged', () => {
    const e = episode('small', 'A door. Say \\boxed{word}.', 5);
    expect(clipEpisode(e)).toBe(e);
  });

  it('cuts 100,000-character control-character observations to the limits, flags it, and keeps every turn, reward and small text', () => {
    const e = episode('flood', FLOOD, 25);
    expect(episodeTextSize(e)).toBeGreaterThan(25 * 2 * 600_000);
    const stored = clipEpisode(e);
    expect(stored.clipped).toBe(true);
    expect(episodeTextSize(stored)).toBeLessThanOrEqual(EPISODE_TEXT_CHARS);
    expect(stored.turns.map((t) => [t.reward, t.terminated, t.truncated, t.reply, t.action])).toEqual(
      e.turns.map((t) => [t.reward, t.terminated, t.truncated, t.reply, t.action]),
    );
    expect(stored.messages.filter((m) => m.role === 'assistant')).toEqual(
      e.messages.filter((m) => m.role === 'assistant'),
    );
    expect(stored.return).toBe(e.return);
    expect(stored.turns[0]!.observation.endsWith(CLIP_MARKER)).toBe(true);
    expect(stored.turns[0]!.observation.startsWith('\u0001'.repeat(1000))).toBe(true);
  });

  it('cuts any one string to STORED_STRING_CHARS even when the episode has room', () => {
    const stored = clipEpisode(episode('one', FLOOD, 1));
    expect(stored.clipped).toBe(true);
    expect(writtenLength(stored.firstObservation)).toBeLessThanOrEqual(STORED_STRING_CHARS);
    expect(writtenLength(stored.firstObservation)).toBeGreaterThan(STORED_STRING_CHARS - 10);
  });
});

describe('clipEpochEpisodes', () => {
  it('keeps an epoch of floods within its budget, cutting every episode to the same size whatever its place', () => {
    const floods = Array.from({ length: 8 }, (_, i) => episode(`flood-${i}`, FLOOD.slice(0, 20_000), 3));
    const budget = 400_000;
    expect(floods.reduce((sum, e) => sum + episodeTextSize(e), 0)).toBeGreaterThan(budget);
    const stored = clipEpochEpisodes([episode('small', 'A door.', 3), ...floods], budget);
    expect(stored.reduce((sum, e) => sum + episodeTextSize(e), 0)).toBeLessThanOrEqual(budget);
    expect(stored[0]!.clipped).toBeUndefined();
    expect(stored.slice(1).every((e) => e.clipped === true)).toBe(true);
    const sizes = stored.slice(1).map(episodeTextSize);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(100);
    expect(stored.map((e) => e.return)).toEqual([1, ...floods.map(() => 1)]);
  });

  it('the epoch budget leaves an epoch file well inside the longest string V8 makes (2^29 - 24 characters)', () => {
    expect(EPOCH_TEXT_CHARS).toBeLessThanOrEqual((2 ** 29 - 24) / 2);
  });
});

describe('storedStep', () => {
  it('names a non-finite reward, which JSON writes as null, and nothing else', () => {
    const step = (reward: number) =>
      storedStep({ observation: 'o', reward, terminated: true, truncated: false, info: { x: 1 } });
    expect(
      JSON.parse(
        JSON.stringify([step(Number.NaN), step(Number.POSITIVE_INFINITY), step(Number.NEGATIVE_INFINITY), step(0.5)]),
      ),
    ).toEqual([
      { observation: 'o', reward: null, nonfiniteReward: 'nan', terminated: true, truncated: false },
      { observation: 'o', reward: null, nonfiniteReward: 'inf', terminated: true, truncated: false },
      { observation: 'o', reward: null, nonfiniteReward: '-inf', terminated: true, truncated: false },
      { observation: 'o', reward: 0.5, terminated: true, truncated: false },
    ]);
  });
});
