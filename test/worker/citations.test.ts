// An answer's citations as a reader follows them (#42): [1], [2], ... in the order the answer first
// uses them, no gaps, one source per file and page.
import { describe, expect, it } from "vitest";
import { Citations, citeAnswer } from "../../worker/answer/citations";
import type { Passage } from "../../worker/providers/llm/types";

const passage = (documentId: string, page: number, text: string, charStart = 0): Passage => ({
  chunkId: `${documentId}:${page}:${charStart}`,
  documentId,
  fileName: `${documentId}.pdf`,
  page,
  text,
  charStart,
  charEnd: charStart + text.length,
});

describe("citations", () => {
  it("numbers sources in the order the answer first cites them, with no gaps", () => {
    const passages = [1, 2, 3, 4, 5, 6, 7, 8].map((page) => passage("pub", page, `Text of page ${page}.`));
    const { text, sources } = citeAnswer("The rule is stated here [3].\n\n- A quote [8]\n\nSee also: [1] [5]", passages);
    expect(text).toBe("The rule is stated here [1].\n\n- A quote [2]\n\nSee also: [3] [4]");
    expect(sources.map((s) => [s.n, s.page])).toEqual([
      [1, 3],
      [2, 8],
      [3, 1],
      [4, 5],
    ]);
  });

  it("lists one source per file and page: passages of one page share its number and are all marked", () => {
    const passages = [
      passage("handbook", 1, "Section 3: Leave Policy. Full-time employees accrue 20 vacation days.", 0),
      passage("handbook", 2, "Remote work is allowed two days a week.", 0),
      passage("handbook", 1, "Unused vacation days expire on March 31.", 400),
      passage("policy", 1, "Vacation requests go to the manager.", 0),
    ];
    const { text, sources } = citeAnswer("Employees accrue 20 days [1]. They expire on March 31 [3]. Ask the manager [4].", passages);
    expect(text).toBe("Employees accrue 20 days [1]. They expire on March 31 [1]. Ask the manager [2].");
    expect(sources).toHaveLength(2);
    expect(sources[0]).toMatchObject({ n: 1, fileId: "handbook", page: 1, charStart: 0 });
    expect(sources[0]!.more).toEqual([{ charStart: 400, charEnd: 440, quote: "Unused vacation days expire on March 31." }]);
    // the same page of another file is another source
    expect(sources[1]).toMatchObject({ n: 2, fileId: "policy", page: 1 });
    expect(sources[1]!.more).toBeUndefined();
  });

  it("renumbers a streamed answer whose citation is cut between two pieces", () => {
    const passages = [passage("a", 1, "One."), passage("a", 2, "Two."), passage("a", 3, "Three.")];
    const citations = new Citations(passages);
    const pieces = ["The answer is here [", "3", "]. And there [", "1]", " too [2"];
    const streamed = pieces.map((piece) => citations.renumber(piece)).join("") + citations.flush();
    expect(streamed).toBe("The answer is here [1]. And there [2] too [2");
    // "[2" never closed: it cites nothing
    expect(citations.sources().map((s) => s.page)).toEqual([3, 1]);
    expect(citations.citedPassages().map((p) => p.page)).toEqual([3, 1]);
  });

  it("leaves a number that names no passage as written, citing nothing", () => {
    const passages = [passage("a", 1, "One."), passage("a", 2, "Two.")];
    const { text, sources } = citeAnswer("See [2] and [7] and [0], then [1].", passages);
    expect(text).toBe("See [1] and [7] and [0], then [2].");
    expect(sources.map((s) => s.page)).toEqual([2, 1]);
  });
});
