// What a reader would call a broken answer, counted over every answer the bench writes (#42): a
// lead that is a fragment, and citations a person cannot follow. The lead is the answer's first
// paragraph without its citation; a note the answer opens with ("_p17.pdf is still being
// indexed..._") is no lead.
import type { Source } from "../worker/contract/protocol";

/** What is wrong with an answer's lead and citations; [] when nothing is. */
export function leadDefects(answer: string, sources: readonly Source[]): string[] {
  const defects: string[] = [];
  const paragraphs = answer.split(/\n\n+/).filter((p) => !/^_.*_$/s.test(p.trim()));
  const lead = (paragraphs[0] ?? "")
    .split("\n")[0]!
    .replace(/(?:\s*\[\d{1,2}\])+\s*$/, "")
    .trim();
  // "I could not find..." has no citation and is no lead to check
  const cites = /\[\d{1,2}\]/.test(answer);
  if (cites) {
    // a labelled line answers as a table row or a form's line does: "Revenue: 2023 $46,298; ..."
    const label = /^([^:]{2,120}): \S/.exec(lead)?.[1];
    const labelled = label !== undefined && (label.match(/\p{L}{2,}/gu)?.length ?? 0) >= 1;
    if (!/^["“'$]?[\p{Lu}\p{N}]/u.test(lead)) defects.push("starts lowercase or with punctuation");
    if (!labelled && !/[.!?]["”')]?$|\)$/u.test(lead)) defects.push("no sentence end");
    if (lead.split(/\s+/).filter(Boolean).length < 5) defects.push("under five words");
    const visible = lead.replace(/\s/g, "");
    const letters = visible.match(/\p{L}/gu)?.length ?? 0;
    if (!labelled && letters < visible.length * 0.5) defects.push("mostly digits and punctuation");
  }
  const used = [...answer.matchAll(/\[(\d{1,2})\]/g)].map((m) => Number(m[1]));
  const firstUse = [...new Set(used)];
  if (firstUse.some((n, i) => n !== i + 1)) defects.push("citation numbers out of order or with a gap");
  const pages = sources.map((s) => `${s.fileId}:${s.page}`);
  if (new Set(pages).size !== pages.length) defects.push("one page listed twice");
  return defects;
}
