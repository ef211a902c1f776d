// An account's stored record, encrypted at rest (docs/decisions/0011-account-keys.md): AES-GCM
// under a key derived (HKDF-SHA-256) from the Worker secret ACCOUNTS_SECRET, with the account's
// name as additional data, so a blob copied to another account's store does not open there.
import { fromBase64Url, toBase64Url } from '../keys.ts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
// Versioned, so a later scheme can sit beside this one while records are re-sealed.
const VERSION = 'v1';
const SALT = encoder.encode('agent-functions/account-store');
const INFO = encoder.encode('aes-256-gcm v1');

// Deriving costs more than a seal; the secret changes only on deploy.
const derived = new Map<string, Promise<CryptoKey>>();

const keyOf = (secret: string): Promise<CryptoKey> => {
  let key = derived.get(secret);
  if (!key) {
    if (derived.size >= 4) derived.clear();
    key = crypto.subtle
      .importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: INFO },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    derived.set(secret, key);
    key.catch(() => derived.delete(secret));
  }
  return key;
};

const aadOf = (account: string) => encoder.encode(`account:${account}`);

/**
 * `plaintext` sealed for `account`: `v1.<iv>.<ciphertext>`, base64url, a fresh iv each time.
 * @example await seal(env.ACCOUNTS_SECRET, 'client-acme', JSON.stringify(record))
 */
export const seal = async (secret: string, account: string, plaintext: string): Promise<string> => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: aadOf(account) },
    await keyOf(secret),
    encoder.encode(plaintext),
  );
  return `${VERSION}.${toBase64Url(iv)}.${toBase64Url(data)}`;
};

/** The plaintext of a blob sealed for `account` under `secret`; undefined when it does not open (another secret, another account, tampered). */
export const unseal = async (secret: string, account: string, blob: string): Promise<string | undefined> => {
  const [version, ivText, dataText, ...rest] = blob.split('.');
  if (version !== VERSION || rest.length > 0 || !ivText || !dataText) return undefined;
  const iv = fromBase64Url(ivText);
  const data = fromBase64Url(dataText);
  if (iv?.length !== 12 || !data) return undefined;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv, additionalData: aadOf(account) },
      await keyOf(secret),
      data,
    );
    return decoder.decode(plain);
  } catch {
    return undefined;
  }
};
