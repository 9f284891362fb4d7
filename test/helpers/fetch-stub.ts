// Replaces fetch in client tests: records each request and answers JSON from the
// test's reply function.
import { vi } from "vitest";

export type Reply = { status: number; body: unknown };
export interface RecordedRequest {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

export function stubJsonFetch(requests: RecordedRequest[], reply: (url: string, init?: RequestInit) => Reply | Promise<Reply>): void {
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    requests.push({
      method: init?.method ?? "GET",
      url,
      body: init?.body ? JSON.parse(init.body as string) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
    });
    const { status, body } = await reply(url, init);
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
}
