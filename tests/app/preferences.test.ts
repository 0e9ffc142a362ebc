import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PREFERENCE_KEYS,
  readPreference,
  writePreference,
  type PreferenceStorage,
} from '../../src/app/shell/preferences.ts';
import { filesUnder } from '../core/source-imports.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function memoryStorage(): PreferenceStorage & { items: Record<string, string> } {
  const items: Record<string, string> = {};
  return { items, getItem: (key) => items[key] ?? null, setItem: (key, value) => void (items[key] = value) };
}

const refusing: PreferenceStorage = {
  getItem: () => {
    throw new Error('SecurityError');
  },
  setItem: () => {
    throw new Error('QuotaExceededError');
  },
};

describe('preferences', () => {
  it('names every stored key once, under the app prefix', () => {
    const keys = Object.values(PREFERENCE_KEYS);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((key) => !key.startsWith('spade-lab-'))).toEqual([]);
  });

  it('reads back what was written under its key, and null for nothing, a missing storage or one that refuses', () => {
    const storage = memoryStorage();
    expect(readPreference(storage, 'theme')).toBeNull();
    writePreference(storage, 'theme', 'dark');
    expect(storage.items).toEqual({ 'spade-lab-theme': 'dark' });
    expect(readPreference(storage, 'theme')).toBe('dark');
    expect(readPreference(null, 'theme')).toBeNull();
    expect(readPreference(refusing, 'theme')).toBeNull();
    expect(() => writePreference(refusing, 'lastRun', 'r1')).not.toThrow();
  });

  it('is the only app or UI file that reads or writes localStorage items', () => {
    const files = [...filesUnder(join(ROOT, 'src', 'app')), ...filesUnder(join(ROOT, 'src', 'ui'))];
    const direct = files.filter((file) =>
      /localStorage\s*\.\s*(getItem|setItem|removeItem)\b|'spade-lab-(?!run-)[a-z-]+'/.test(readFileSync(file, 'utf8')),
    );
    expect(direct.map((file) => relative(ROOT, file))).toEqual(['src/app/shell/preferences.ts']);
  });
});
