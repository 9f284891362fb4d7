// Proves the static assets carry the same security headers as the Worker's
// responses: client/public/_headers lists exactly worker/lib/security-headers.ts.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SECURITY_HEADERS } from "../../worker/lib/security-headers";

describe("client/public/_headers", () => {
  it("sets every security header the Worker sets, with the same values", () => {
    const file = readFileSync(new URL("../../client/public/_headers", import.meta.url), "utf8");
    const rules = file
      .split("\n")
      .filter((line) => /^\s+\S+:\s/.test(line))
      .map(
        (line) =>
          line
            .trim()
            .split(/:\s(.*)/s)
            .slice(0, 2) as [string, string],
      );
    expect(Object.fromEntries(rules)).toEqual(SECURITY_HEADERS);
    expect(file).toMatch(/^\/\*$/m);
  });
});
