// vitest globalSetup (Node side): serves ../shared/corpus on a loopback port so
// worker tests inside workerd can fetch the real PDFs. Nothing is copied into the
// project; without the corpus the corpus tests skip.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, normalize } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    corpus: { baseUrl: string; files: string[] } | null;
  }
}

const CORPUS_DIR = normalize(join(import.meta.dirname, "../../../shared/corpus"));

export default async function setup(project: TestProject) {
  if (!existsSync(CORPUS_DIR)) {
    project.provide("corpus", null);
    return;
  }
  const files = ["edge_pdfjs", "edge_pypdf", "irs", "sec_financebench"].flatMap((dir) =>
    existsSync(join(CORPUS_DIR, dir))
      ? readdirSync(join(CORPUS_DIR, dir))
          .filter((f) => f.endsWith(".pdf"))
          .map((f) => `${dir}/${f}`)
      : [],
  );
  const server = createServer((req, res) => {
    const path = normalize(join(CORPUS_DIR, decodeURIComponent((req.url ?? "/").slice(1))));
    if (!path.startsWith(CORPUS_DIR) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "application/pdf" }).end(readFileSync(path));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  project.provide("corpus", { baseUrl: `http://127.0.0.1:${port}`, files });
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
