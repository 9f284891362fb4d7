// Proves the extractive memo's key answers: an answer's first points with their
// citations written out, and a note on a document still being indexed said after
// the answer in plain words, never in its place.
import { describe, expect, it } from "vitest";
import { partialIndexNote, type StoredMessage } from "../../worker/contract/protocol";
import { extractiveMemo } from "../../worker/services/memo";

const message = (role: StoredMessage["role"], content: string, extra: Partial<StoredMessage> = {}): StoredMessage => ({
  id: crypto.randomUUID(),
  role,
  content,
  created_at: Date.now(),
  ...extra,
});

describe("the extractive memo", () => {
  it("gives the answer, not the indexing note set before it, and says the note after it (a 10-K, a handbook)", () => {
    const note = partialIndexNote({ fileName: "3M_2018_10K.pdf", pagesDone: 25, pagesTotal: 160 });
    const memo = extractiveMemo("Net sales", [
      message("user", "What were 3M's net sales in 2018?"),
      message("assistant", `_${note}_\n\nNet sales: 2018 $32,765; 2017 $31,657 [1]`, {
        sources: [{ n: 1, fileId: "f1", fileName: "3M_2018_10K.pdf", page: 56 }],
      }),
      message("user", "How long is parental leave?"),
      message("assistant", "Parental leave is sixteen weeks at full pay. [1]\n\nSee also: [2]", {
        sources: [
          { n: 1, fileId: "f2", fileName: "Handbook.pdf", page: 3 },
          { n: 2, fileId: "f2", fileName: "Handbook.pdf", page: 4 },
        ],
      }),
    ]);
    expect(memo).toContain(`  Net sales: 2018 $32,765; 2017 $31,657 (3M_2018_10K.pdf, p. 56) (${note})`);
    expect(memo).not.toContain("_3M");
    expect(memo).toContain("  Parental leave is sixteen weeks at full pay. (Handbook.pdf, p. 3)");
  });
});
