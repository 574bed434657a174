// A software WebAuthn authenticator for tests: P-256 keys from node:crypto, "none" attestation, and the
// clientDataJSON and authenticatorData a browser and an authenticator would produce, so the server's real
// verification (@simplewebauthn/server) checks real signatures. One instance is one authenticator holding passkeys.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

/** The little CBOR (RFC 8949) WebAuthn needs: unsigned and negative integers, bytes, text, arrays and maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
    if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (b: Uint8Array | string) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

interface Passkey {
  credentialId: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}

export interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

export function softAuthenticator() {
  const passkeys: Passkey[] = [];

  function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
  }

  return {
    passkeys,

    /** `navigator.credentials.create` with these options, answered as `startRegistration` returns it. */
    register(options: CreationOptions, origin: string) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
      const cose = cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x, 'base64url')],
          [-3, Buffer.from(jwk.y, 'base64url')],
        ]),
      );
      const credentialId = randomBytes(32);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([0x45]), // user present, user verified, attested credential data
        Buffer.alloc(4), // sign count 0
        Buffer.alloc(16), // AAGUID: none
        idLength,
        credentialId,
        cose,
      ]);
      passkeys.push({ credentialId, privateKey, rpId, userHandle: options.user.id, counter: 0 });
      const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal' as const],
        },
      };
    },

    /**
     * `navigator.credentials.get` with these options, answered as `startAuthentication` returns it: with the first
     * allowed passkey it holds, or (no list: a discoverable sign-in) `use`, else its first passkey for the relying party.
     */
    authenticate(options: RequestOptions, origin: string, use?: { credentialId: string }) {
      const rpId = options.rpId ?? new URL(origin).hostname;
      const allowed = (options.allowCredentials ?? []).map((c) => c.id);
      const key = passkeys.find(
        (p) =>
          p.rpId === rpId &&
          (use
            ? b64url(p.credentialId) === use.credentialId
            : allowed.length === 0 || allowed.includes(b64url(p.credentialId))),
      );
      if (!key) throw new Error('no passkey of this authenticator fits the request');
      key.counter++;
      const counter = Buffer.alloc(4);
      counter.writeUInt32BE(key.counter);
      const authData = Buffer.concat([sha256(rpId), Buffer.from([0x05]), counter]);
      const data = clientData('webauthn.get', options.challenge, origin);
      const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), key.privateKey);
      return {
        id: b64url(key.credentialId),
        rawId: b64url(key.credentialId),
        type: 'public-key' as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(data),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: key.userHandle,
        },
      };
    },
  };
}

export type SoftAuthenticator = ReturnType<typeof softAuthenticator>;
