const encoder = new TextEncoder();

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** SHA-256 of bytes, or of a text's UTF-8 bytes, as lowercase hex (Web Crypto: browsers and Node 20's globalThis.crypto). */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
}

/** sha256Hex for texts (the core's HashText port). */
export const hashText = (text: string): Promise<string> => sha256Hex(text);
