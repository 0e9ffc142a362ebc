import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEMO_PIECE_DELAY_MS, readDemoSpeed, saveDemoSpeed } from '../../src/app/run/demo-speed.ts';
import type { PreferenceStorage as SpeedStorage } from '../../src/app/shell/preferences.ts';

function memoryStorage(initial: Record<string, string> = {}): SpeedStorage & { items: Record<string, string> } {
  const items = { ...initial };
  return { items, getItem: (key) => items[key] ?? null, setItem: (key, value) => void (items[key] = value) };
}

const refusing: SpeedStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
};

describe('demo speed', () => {
  it('reads what was saved, and normal for nothing, an unknown value or a storage that refuses', () => {
    const storage = memoryStorage();
    expect(readDemoSpeed(storage)).toBe('normal');
    saveDemoSpeed(storage, 'instant');
    expect(readDemoSpeed(storage)).toBe('instant');
    expect(readDemoSpeed(memoryStorage({ 'spade-lab-demo-speed': 'warp' }))).toBe('normal');
    expect(readDemoSpeed(memoryStorage({ 'spade-lab-demo-speed': '__proto__' }))).toBe('normal');
    expect(readDemoSpeed(refusing)).toBe('normal');
    expect(readDemoSpeed(null)).toBe('normal');
    expect(() => saveDemoSpeed(refusing, 'slow')).not.toThrow();
  });

  it('slows the stream only: slow > normal > instant = 0 ms per piece', () => {
    expect(DEMO_PIECE_DELAY_MS.slow).toBeGreaterThan(DEMO_PIECE_DELAY_MS.normal);
    expect(DEMO_PIECE_DELAY_MS.normal).toBeGreaterThan(0);
    expect(DEMO_PIECE_DELAY_MS.instant).toBe(0);
  });

  it('a scripted model reads its delay before every piece, so a change applies mid-reply and the text is the same', async () => {
    const asked: number[] = [];
    let delay = 5;
    const model = new ScriptedChatModel(
      { rules: [{ purpose: 'agent', replies: ['one two three four'] }] },
      'speed',
      () => {
        asked.push(delay);
        return delay;
      },
    );
    const pieces: string[] = [];
    const result = await model.complete({
      messages: [{ role: 'user', content: 'play' }],
      purpose: 'agent',
      onToken: (piece: string) => {
        pieces.push(piece);
        if (pieces.length === 2) delay = 0;
      },
    } as never);
    expect(result.text).toBe('one two three four');
    expect(pieces.join('')).toBe('one two three four');
    expect(asked).toEqual([5, 0, 0, 0]);
  });
});
