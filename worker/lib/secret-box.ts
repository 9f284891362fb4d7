// AES-GCM encryption for secrets we must keep (Google Drive tokens). The key is
// derived from ENCRYPTION_KEY; each value gets a fresh 96-bit IV stored with it.
import { fromBase64, toBase64 } from "./encoding";

const encoder = new TextEncoder();
const VERSION = "v1";

async function aesKey(secret: string | undefined): Promise<CryptoKey> {
  if (!secret || secret.length < 32) throw new Error("ENCRYPTION_KEY must be set to at least 32 characters");
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`secret-box:${secret}`));
  return crypto.subtle.importKey("raw", digest, "AES-GCM", false, ["encrypt", "decrypt"]);
}

export async function seal(secret: string | undefined, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(secret), encoder.encode(plaintext)));
  return `${VERSION}.${toBase64(iv)}.${toBase64(ciphertext)}`;
}

/** The plaintext, or null for anything tampered with or sealed under another key. */
export async function open(secret: string | undefined, sealed: string): Promise<string | null> {
  const [version, iv, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !ciphertext) return null;
  try {
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64(iv) }, await aesKey(secret), fromBase64(ciphertext));
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}
