import { describe, expect, it } from 'vitest';
import { copyText } from '../../src/app/shell/clipboard.ts';

describe('copyText', () => {
  it('says copied only when the write succeeded', async () => {
    const written: string[] = [];
    await expect(copyText('a link', { writeText: async (text) => void written.push(text) })).resolves.toEqual({
      copied: true,
    });
    expect(written).toEqual(['a link']);
  });

  it('says why not when the browser refuses or has no clipboard', async () => {
    const refusing = {
      writeText: () => Promise.reject(new DOMException('Document is not focused.', 'NotAllowedError')),
    };
    await expect(copyText('a link', refusing)).resolves.toEqual({
      copied: false,
      reason: 'The browser refused the clipboard (Document is not focused.).',
    });
    await expect(copyText('a link', undefined)).resolves.toEqual({
      copied: false,
      reason: 'This browser gives the page no clipboard here (it needs https or localhost).',
    });
  });
});
