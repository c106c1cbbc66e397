/**
 * OpenSSL's codes, as Node gives them, for a certificate whose issuer this
 * machine does not trust: self-signed, or signed by a company's own
 * authority (a TLS-inspecting proxy's, an internal API's).
 */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);
const OUT_OF_DATE = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
const OTHER_NAME = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH']);

/**
 * Why a connection failed on the server's certificate, said for a person (what
 * to do about a company's own authority included), or undefined when it did
 * not: the code is looked for in the error and its causes (fetch's TypeError
 * wraps it, the AI SDK's error wraps that). Such a failure is no network
 * trouble a retry would get past.
 */
export function certificateFailure(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (UNTRUSTED.has(code)) {
        return `its certificate is not one this machine trusts (${code}); a company's own certificate authority goes in NODE_EXTRA_CA_CERTS, a PEM file read when Flowbench starts`;
      }
      if (OUT_OF_DATE.has(code)) return `its certificate is out of date (${code})`;
      if (OTHER_NAME.has(code)) return `its certificate is for another name (${code})`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
