// A software authenticator for the passkey tests: ES256 keys of node:crypto, "none"
// attestation, and the answers navigator.credentials.create() and .get() would give (as
// PublicKeyCredential.toJSON() writes them) for any origin and RP ID the test names, so a
// test can make the answers a browser never would: another origin, another RP ID, an old
// counter.
import { type CallOptions, callJson } from "./context.ts";
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

const b64u = (b: Uint8Array | Buffer) => Buffer.from(b).toString("base64url");
const sha256 = (b: Uint8Array | string) => createHash("sha256").update(b).digest();

/** The little CBOR the attestation needs: maps, byte and text strings, small integers. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  throw new Error("cbor: unsupported value");
}

export interface Ceremony {
  origin: string;
  rpId: string;
}

export interface SoftPasskey {
  credentialId: string;
  userHandle: string;
  counter: number;
  privateKey: KeyObject;
}

function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string) {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** A new authenticator: makes passkeys and signs with them. `userVerified`: whether it says the user was verified. */
export function softAuthenticator(opts: { userVerified?: boolean; startCounter?: number } = {}) {
  const uv = opts.userVerified ?? true;
  const flags = (attested: boolean) => 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
  const counterBytes = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };

  return {
    /** The answer to creation options (`options.challenge`, `options.user.id`), made at `at`. */
    register(options: { challenge: string; user: { id: string } }, at: Ceremony) {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwk = publicKey.export({ format: "jwk" });
      const credentialId = randomBytes(16);
      const cose = cbor(
        new Map<number, unknown>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, "base64url")],
          [-3, Buffer.from(jwk.y!, "base64url")],
        ]),
      );
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const counter = opts.startCounter ?? 0;
      const authData = Buffer.concat([sha256(at.rpId), Buffer.from([flags(true)]), counterBytes(counter), Buffer.alloc(16), idLength, credentialId, cose]);
      const attestationObject = cbor(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      const passkey: SoftPasskey = { credentialId: b64u(credentialId), userHandle: options.user.id, counter, privateKey };
      const response = {
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: "public-key" as const,
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: b64u(clientData("webauthn.create", options.challenge, at.origin)),
          attestationObject: b64u(attestationObject),
          transports: ["internal"],
        },
      };
      return { passkey, response };
    },

    /**
     * The answer to request options' `challenge` with `passkey`, made at `at`; its counter
     * moves on by one unless `counter` says what to sign.
     */
    assert(passkey: SoftPasskey, challenge: string, at: Ceremony, o: { counter?: number } = {}) {
      const counter = o.counter ?? (passkey.counter === 0 && opts.startCounter === undefined ? 0 : passkey.counter + 1);
      if (o.counter === undefined) passkey.counter = counter;
      const authData = Buffer.concat([sha256(at.rpId), Buffer.from([flags(false)]), counterBytes(counter)]);
      const data = clientData("webauthn.get", challenge, at.origin);
      const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), passkey.privateKey);
      return {
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: "public-key" as const,
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
        response: {
          clientDataJSON: b64u(data),
          authenticatorData: b64u(authData),
          signature: b64u(signature),
          userHandle: passkey.userHandle,
        },
      };
    },
  };
}

/** The address the test apps answer at (test/helpers/context.ts): a ceremony made there. */
const TEST_SITE: Ceremony = { origin: "http://shelf.test", rpId: "shelf.test" };

/** A passkey added to the account of `token` through the API; its id, and what signs with it. */
export async function addPasskey(token: string, o: { app?: CallOptions["app"]; name?: string } = {}) {
  const auth = softAuthenticator();
  const begun = await callJson("POST", "/v1/user/me/passkeys/options", { app: o.app, token });
  if (begun.status !== 200) throw new Error(`passkey options: ${begun.status} ${JSON.stringify(begun.body)}`);
  const { passkey, response } = auth.register(begun.body.data.options, TEST_SITE);
  const added = await callJson("POST", "/v1/user/me/passkeys", { app: o.app, token, json: { name: o.name ?? "Laptop", response } });
  if (added.status !== 201) throw new Error(`passkey add: ${added.status} ${JSON.stringify(added.body)}`);
  return { id: added.body.data.passkey.id as string, passkey, auth, recoveryCodes: added.body.data.recoveryCodes as string[] | null };
}
