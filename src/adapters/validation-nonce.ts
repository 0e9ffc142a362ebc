let nonce: number | null = null;

/** A random number drawn once per process (or tab) and mixed into the validation challenge of code validated outside a run (docs/method.md section 1, "Validate"). */
export function validationNonce(): number {
  nonce ??= globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
  return nonce;
}
