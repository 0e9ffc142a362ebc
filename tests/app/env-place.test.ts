import { describe, expect, it } from 'vitest';
import { environmentId, environmentPlace, placeOfId } from '../../src/core/loop/epoch.ts';
import { glossaryEntry } from '../../src/app/learn/glossary.ts';

describe("an environment id in the app's numbering", () => {
  it('reads an id (counted from 0, as the files count) as the epoch and slot the app shows (counted from 1)', () => {
    expect(placeOfId('e0001-s02')).toBe('epoch 2, slot 3');
    expect(placeOfId(environmentId(0, 0))).toBe('epoch 1, slot 1');
    expect(placeOfId(environmentId(12345, 3))).toBe(environmentPlace(12345, 3));
    // An imported pool keeps its own ids: nothing is made up for them.
    expect([placeOfId('game_12'), placeOfId('e1-s2'), placeOfId('xe0001-s02')]).toEqual([null, null, null]);
  });

  it('explains the two numberings in the glossary, with the example computed, not typed', () => {
    expect(glossaryEntry('env-id')!.definition).toContain('so e0001-s02 is epoch 2, slot 3 in the app');
  });
});
