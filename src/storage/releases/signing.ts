// Release signatures: Ed25519 in minisign's format (prehashed: Ed25519 over BLAKE2b-512 of the
// file), so an operator can check a release by hand with Debian's `minisign -V -p release.pub`.
// The secret key is a PKCS#8 PEM file (mode 0600); the public key is a minisign public key file.
// A key's id is the first 8 bytes of the SHA-256 of its raw public key, so the id is derived, not
// stored: the secret key file alone gives both halves.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const PK_ALG = Buffer.from('Ed');
const SIG_ALG_PREHASHED = Buffer.from('ED');

export interface PublicKey {
  /** 16 hex digits, as minisign prints a key id. */
  id: string;
  keyId: Buffer;
  key: crypto.KeyObject;
}

export interface SecretKey extends PublicKey {
  secret: crypto.KeyObject;
}

/** A signature or key that cannot be read or does not verify; the message says which. */
export class SignatureError extends Error {
  override name = 'SignatureError';
}

function rawPublic(key: crypto.KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  return Buffer.from(jwk.x ?? '', 'base64url');
}

/** minisign prints the key id as the little-endian number its 8 bytes make. */
const keyIdText = (keyId: Buffer): string => Buffer.from(keyId).reverse().toString('hex').toUpperCase();

function publicOf(key: crypto.KeyObject): PublicKey {
  const keyId = crypto.createHash('sha256').update(rawPublic(key)).digest().subarray(0, 8);
  return { id: keyIdText(keyId), keyId, key };
}

/** Writes `release.key` (0600, refused when it exists) and `release.pub` into `dir`. */
export function generateKeyPair(dir: string): { secretFile: string; publicFile: string; id: string } {
  fs.mkdirSync(dir, { recursive: true });
  const secretFile = path.join(dir, 'release.key');
  const publicFile = path.join(dir, 'release.pub');
  for (const f of [secretFile, publicFile])
    if (fs.existsSync(f)) throw new Error(`${f} already exists; move it away first (a key is never overwritten)`);
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  const pub = publicOf(publicKey);
  fs.writeFileSync(secretFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(publicFile, publicKeyText(pub), { flag: 'wx' });
  return { secretFile, publicFile, id: pub.id };
}

export function publicKeyText(pub: PublicKey): string {
  const body = Buffer.concat([PK_ALG, pub.keyId, rawPublic(pub.key)]).toString('base64');
  return `untrusted comment: minisign public key ${pub.id}\n${body}\n`;
}

export function readSecretKey(file: string): SecretKey {
  let secret: crypto.KeyObject;
  try {
    secret = crypto.createPrivateKey(fs.readFileSync(file));
  } catch (err) {
    throw new SignatureError(`${file} is not a release secret key: ${(err as Error).message}`);
  }
  if (secret.asymmetricKeyType !== 'ed25519') throw new SignatureError(`${file} is not an Ed25519 key`);
  return { ...publicOf(crypto.createPublicKey(secret)), secret };
}

/** Reads one or more minisign public keys (files, or the base64 line itself). */
export function readPublicKey(fileOrText: string): PublicKey {
  const text = fs.existsSync(fileOrText) ? fs.readFileSync(fileOrText, 'utf8') : fileOrText;
  const line = text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('untrusted comment:'));
  const raw = line ? Buffer.from(line, 'base64') : Buffer.alloc(0);
  if (raw.length !== 42 || !raw.subarray(0, 2).equals(PK_ALG))
    throw new SignatureError(`${fileOrText} is not a minisign Ed25519 public key`);
  const key = crypto.createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.subarray(10).toString('base64url') },
    format: 'jwk',
  });
  const pub = publicOf(key);
  if (!pub.keyId.equals(raw.subarray(2, 10)))
    throw new SignatureError(
      `${fileOrText}: its key id does not belong to its key (not made by cnpj-api release keygen)`,
    );
  return pub;
}

const prehash = (data: Buffer): Buffer => crypto.createHash('blake2b512').update(data).digest();

/** The `.minisig` text for `data`; `trusted` is signed too (minisign's "trusted comment"). */
export function sign(data: Buffer, key: SecretKey, trusted: string): string {
  if (trusted.includes('\n')) throw new Error('a trusted comment is one line');
  const sig = crypto.sign(null, prehash(data), key.secret);
  const global = crypto.sign(null, Buffer.concat([sig, Buffer.from(trusted)]), key.secret);
  return (
    `untrusted comment: signature from cnpj-api release key ${key.id}\n` +
    `${Buffer.concat([SIG_ALG_PREHASHED, key.keyId, sig]).toString('base64')}\n` +
    `trusted comment: ${trusted}\n${global.toString('base64')}\n`
  );
}

/**
 * Checks `signature` (a `.minisig` text) over `data` against the trusted keys; returns the key
 * that signed it and the trusted comment, or throws a SignatureError saying what is wrong.
 */
export function verify(
  data: Buffer,
  signature: string,
  trusted: readonly PublicKey[],
  what: string,
): { key: PublicKey; comment: string } {
  const lines = signature.split('\n');
  const raw = Buffer.from(lines[1]?.trim() ?? '', 'base64');
  const commentLine = lines[2] ?? '';
  const global = Buffer.from(lines[3]?.trim() ?? '', 'base64');
  if (raw.length !== 74 || !commentLine.startsWith('trusted comment: ') || global.length !== 64)
    throw new SignatureError(`the signature of ${what} is malformed`);
  if (!raw.subarray(0, 2).equals(SIG_ALG_PREHASHED))
    throw new SignatureError(`the signature of ${what} is not a prehashed Ed25519 signature`);
  const keyId = raw.subarray(2, 10);
  const key = trusted.find((k) => k.keyId.equals(keyId));
  if (!key)
    throw new SignatureError(
      `${what} is signed by key ${keyIdText(keyId)}, which is not trusted (trusted: ${trusted.map((k) => k.id).join(', ') || 'none'})`,
    );
  const sig = raw.subarray(10);
  const comment = commentLine.slice('trusted comment: '.length);
  if (!crypto.verify(null, prehash(data), key.key, sig))
    throw new SignatureError(`the signature of ${what} does not match its content (bad signature)`);
  if (!crypto.verify(null, Buffer.concat([sig, Buffer.from(comment)]), key.key, global))
    throw new SignatureError(`the trusted comment of ${what}'s signature was altered (bad signature)`);
  return { key, comment };
}
