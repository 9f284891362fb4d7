// Reads a PDF of ../shared/corpus through the loopback server the global setup
// starts (test/helpers/corpus-server.ts). A busy machine sometimes drops the
// connection of a large file, so a read is tried three times.
import { inject } from "vitest";

export const corpus = inject("corpus");

export async function corpusBytes(file: string): Promise<Uint8Array> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(`${corpus!.baseUrl}/${file}`);
      if (!res.ok) throw new Error(`corpus server answered ${res.status} for ${file}`);
      return new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}
