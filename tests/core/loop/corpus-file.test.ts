import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const CORPUS_PATH = resolve(ROOT, 'public/corpus/concepts.jsonl');

const SKILLS = [
  'Mathematical Reasoning',
  'Logical Deduction',
  'Spatial Reasoning',
  'Pattern Recognition',
  'Optimization',
  'Causal Inference',
] as const;

const MIN_PER_SKILL = 11;
const MIN_TOTAL = 66;
const MIN_WORDS = 150;
const MAX_WORDS = 600;

interface CorpusRecord {
  id: string;
  skill: string;
  title: string;
  text: string;
}

const raw = readFileSync(CORPUS_PATH, 'utf8');
const lines = raw.split('\n').filter((line) => line.trim() !== '');

function parse(line: string): unknown {
  return JSON.parse(line) as unknown;
}

function records(): CorpusRecord[] {
  return lines.map((line) => parse(line) as CorpusRecord);
}

function wordCount(text: string): number {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '').length;
}

function slug(skill: string): string {
  return skill.toLowerCase().replace(/\s+/g, '-');
}

describe('public/corpus/concepts.jsonl', () => {
  it('every line is valid JSON holding an object', () => {
    expect(lines.length).toBeGreaterThan(0);
    lines.forEach((line, index) => {
      let value: unknown;
      expect(() => (value = parse(line)), `line ${index + 1}`).not.toThrow();
      expect(typeof value, `line ${index + 1}`).toBe('object');
      expect(value, `line ${index + 1}`).not.toBeNull();
      expect(Array.isArray(value), `line ${index + 1}`).toBe(false);
    });
  });

  it('has exactly the fields id, skill, title and text, all non-empty strings', () => {
    for (const [index, line] of lines.entries()) {
      const record = parse(line) as { [key: string]: unknown };
      expect(Object.keys(record).sort(), `line ${index + 1}`).toEqual(['id', 'skill', 'text', 'title']);
      for (const field of ['id', 'skill', 'title', 'text']) {
        expect(typeof record[field], `line ${index + 1} field ${field}`).toBe('string');
        expect((record[field] as string).trim(), `line ${index + 1} field ${field}`).not.toBe('');
      }
    }
  });

  it('has unique ids of the form <skill-slug>-<nn>', () => {
    const all = records();
    const ids = all.map((record) => record.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const record of all) {
      expect(record.id).toMatch(new RegExp(`^${slug(record.skill)}-\\d{2,}$`));
    }
  });

  it('uses exactly the six skill names', () => {
    const used = new Set(records().map((record) => record.skill));
    expect([...used].sort()).toEqual([...SKILLS].sort());
  });

  it(`has at least ${MIN_PER_SKILL} documents per skill and ${MIN_TOTAL} in total`, () => {
    const all = records();
    expect(all.length).toBeGreaterThanOrEqual(MIN_TOTAL);
    for (const skill of SKILLS) {
      const count = all.filter((record) => record.skill === skill).length;
      expect(count, skill).toBeGreaterThanOrEqual(MIN_PER_SKILL);
    }
  });

  it(`keeps every text between ${MIN_WORDS} and ${MAX_WORDS} words`, () => {
    for (const record of records()) {
      const words = wordCount(record.text);
      expect(words, record.id).toBeGreaterThanOrEqual(MIN_WORDS);
      expect(words, record.id).toBeLessThanOrEqual(MAX_WORDS);
    }
  });

  it('has unique titles', () => {
    const titles = records().map((record) => record.title.trim().toLowerCase());
    expect(new Set(titles).size).toBe(titles.length);
  });
});
