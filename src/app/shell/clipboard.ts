import { errorMessage } from '../../core/error-message.ts';
/** The part of the browser's clipboard a copy needs (absent on insecure origins and in some browsers). */
export type TextClipboard = Pick<Clipboard, 'writeText'> | undefined;

/** What a copy did: the text is on the clipboard, or why not (to say next to the button). */
export type CopyOutcome = { copied: true } | { copied: false; reason: string };

/** Writes `text` to the clipboard; `copied` only when the browser confirmed the write. */
export async function copyText(text: string, clipboard: TextClipboard): Promise<CopyOutcome> {
  if (!clipboard)
    return { copied: false, reason: 'This browser gives the page no clipboard here (it needs https or localhost).' };
  try {
    await clipboard.writeText(text);
    return { copied: true };
  } catch (error) {
    return { copied: false, reason: `The browser refused the clipboard (${errorMessage(error)}).` };
  }
}
