import { describe, expect, it } from 'vitest';
import { GLOSSARY, glossaryEntry, glossaryFromHash, glossSegments } from '../../src/app/learn/glossary.ts';
import { FORMULAS, rewardFormula } from '../../src/app/learn/formulas.ts';
import { plateau } from '../../src/core/scoring/regret.ts';

describe('glossary', () => {
  it("defines every formula term the issue names, with the method's own texts", () => {
    const terms = GLOSSARY.map((e) => e.term);
    for (const term of [
      'r_hint',
      'r_nohint',
      'regret',
      'win rate',
      'plateau',
      'advantage',
      'GRPO group',
      'designer reward',
      'blend',
    ])
      expect(terms).toContain(term);
    expect(glossaryEntry('r-hint').definition).toBe(FORMULAS.rHint);
    expect(glossaryEntry('regret').definition).toBe(FORMULAS.regret);
    expect(glossaryEntry('blend').definition).toContain(rewardFormula('blend'));
    expect(glossaryEntry('designer-reward').details).toEqual([
      rewardFormula('blend'),
      rewardFormula('regret'),
      rewardFormula('solve_rate'),
      rewardFormula('learning_potential'),
    ]);
    expect(() => glossaryEntry('nope')).toThrow(/No glossary entry "nope"/);
  });

  it('states the plateau exactly as plateau(w) computes it', () => {
    const text = glossaryEntry('plateau').definition;
    expect(text).toBe(
      'plateau(w) = 1 on [0.4, 0.6]; below 0.4 it is max(0, 1 - (0.4 - w) / 0.25), above 0.6 it is max(0, 1 - (w - 0.6) / 0.25); so 0 at w <= 0.15 or w >= 0.85.',
    );
    expect([plateau(0.15), plateau(0.85), plateau(0.4), plateau(0.6), plateau(0.275)]).toEqual([
      0,
      expect.closeTo(0, 12),
      1,
      1,
      0.5,
    ]);
  });

  it('marks the first mention of each term, the longest name first, whole words only, any case', () => {
    expect(glossSegments('Regret = r_hint - r_nohint: regret again.')).toEqual([
      { text: 'Regret', term: 'regret' },
      { text: ' = ', term: null },
      { text: 'r_hint', term: 'r-hint' },
      { text: ' - ', term: null },
      { text: 'r_nohint', term: 'r-nohint' },
      { text: ': regret again.', term: null },
    ]);
    expect(glossSegments('Designer advantage and agent advantage (GRPO)').map((s) => s.term)).toEqual([
      'designer-advantage',
      null,
      'advantage',
      null,
      'grpo-group',
      null,
    ]);
    expect(glossSegments('regrets and blended')).toEqual([{ text: 'regrets and blended', term: null }]);
    expect(glossSegments('').length).toBe(0);
  });

  it('reads an entry from a location hash', () => {
    expect(glossaryFromHash('#glossary-plateau')?.term).toBe('plateau');
    expect(glossaryFromHash('#glossary-unknown')).toBeNull();
    expect(glossaryFromHash('#settings=abc')).toBeNull();
  });
});
