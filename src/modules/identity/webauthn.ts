// @simplewebauthn/server, loaded at the first passkey ceremony rather than when a node
// starts. Its certificate helpers (@peculiar/x509) use tsyringe, which needs the
// reflect-metadata polyfill evaluated first; the compiled binary's bundle does not keep the
// library's own import order, so the polyfill is imported here, before it.
type WebAuthn = typeof import("@simplewebauthn/server");

let loaded: Promise<WebAuthn> | undefined;

/** The library, imported once (the polyfill first). */
export const webauthn = (): Promise<WebAuthn> =>
  (loaded ??= (async () => {
    await import("reflect-metadata");
    return import("@simplewebauthn/server");
  })());
