import { describe, expect, it } from 'vitest';
import { parseSettings, settingsFile, settingsFromHash, settingsUrl } from '../../src/app/share-settings.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';

const custom: Config = { ...DEFAULT_CONFIG, seed: 99, skills: ['Optimization', 'Causal Inference'], reward: 'regret', playsPerArm: 6, agent: { ...DEFAULT_CONFIG.agent, temperature: 0.8 } };

describe('shareable settings', () => {
  it('round-trips through a URL and a file', () => {
    const url = settingsUrl(custom, 'http://127.0.0.1:5173/');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:5173\/#settings=[A-Za-z0-9_-]+$/);
    expect(settingsFromHash(new URL(url).hash)).toEqual({ config: custom });
    expect(parseSettings(settingsFile(custom))).toEqual({ config: custom });
  });

  it('fills missing keys with defaults and ignores unknown ones', () => {
    expect(parseSettings(JSON.stringify({ seed: 5, bogus: true }))).toEqual({ config: { ...DEFAULT_CONFIG, seed: 5 } });
  });

  it('rejects bad settings with a specific reason', () => {
    expect(parseSettings('{nope')).toEqual({ error: 'The settings are not valid JSON.' });
    expect(parseSettings('[1]')).toEqual({ error: 'The settings must be a JSON object.' });
    expect(parseSettings(JSON.stringify({ seed: 'one' }))).toEqual({ error: 'The setting "seed" has the wrong type (expected number).' });
    expect(parseSettings(JSON.stringify({ skills: ['Juggling'] }))).toMatchObject({ error: expect.stringContaining('unknown skills') });
    expect(settingsFromHash('#settings=@@@')).toBeNull();
    expect(settingsFromHash('#settings=bm90IGpzb24')).toEqual({ error: 'The settings are not valid JSON.' });
    expect(settingsFromHash('#other=1')).toBeNull();
  });
});
