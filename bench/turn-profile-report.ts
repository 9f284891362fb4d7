// The turn profile as it reads (bench/turn-profile.ts measures it): a markdown table of each
// step before and now, and docs/PERFORMANCE.md's section around it (bench/run.ts writes it).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TurnProfile } from "./turn-profile";

/** The figures before issue 16's changes (PROFILE_OUT=bench/turn-profile-before.json at commit 06268ab). */
export function profileBefore(): TurnProfile {
  return JSON.parse(readFileSync(join(import.meta.dirname, "turn-profile-before.json"), "utf8")) as TurnProfile;
}

/** Markdown rows: each step before and now (matched by name; "-" where a step was not measured then). */
export function profileTable(now: TurnProfile, before: TurnProfile = profileBefore()): string[] {
  const fmt = (n: number | undefined) => (n === undefined ? "-" : n.toFixed(n < 1 ? 3 : 2));
  const sum = (p: TurnProfile, first: boolean) =>
    p.rows.filter((r) => r.beforeFirstChunk === first && !r.instead).reduce((s, r) => s + r.ms, 0);
  const then = new Map(before.rows.map((r) => [r.step, r.ms]));
  const calls = (p: TurnProfile) => (p.d1Calls ? `${p.d1Calls.beforeFirstChunk} / ${p.d1Calls.afterIt}` : "-");
  return [
    "| step | before ms | now ms | calls |",
    "|---|---|---|---|",
    ...now.rows.map(
      (r) =>
        `| ${r.beforeFirstChunk ? "" : "(after the first chunk) "}${r.instead ? "(instead) " : ""}${r.step} | ${fmt(then.get(r.step))} | ${fmt(r.ms)} | ${r.calls ?? ""} |`,
    ),
    `| **sum to the first chunk** | **${fmt(sum(before, true))}** | **${fmt(sum(now, true))}** | |`,
    `| sum after it | ${fmt(sum(before, false))} | ${fmt(sum(now, false))} | |`,
    `| whole turn as ChatSession runs a chat frame, in a new chat (CPU ms) | ${fmt(before.wholeTurnMs)} | ${fmt(now.wholeTurnMs)} | |`,
    `| D1 queries of that turn before its first chunk / after it | ${calls(before)} | ${calls(now)} | |`,
  ];
}

/** docs/PERFORMANCE.md's Turn profile section. */
export function profileSection(profile: TurnProfile | null): string[] {
  const lines = ["## Turn profile: where one chat turn's CPU goes", ""];
  if (!profile) return [...lines, "Skipped: ../shared/corpus/irs/i1040gi.pdf is not present."];
  return [
    ...lines,
    "bench/turn-profile.ts (`node --import tsx --import ./bench/wasm-modules.mjs bench/turn-profile.ts`) runs each step of a turn with the product's own modules",
    `over i1040gi.pdf (${profile.chunks} chunks) in Node: the Library's index and the D1 schema over node:sqlite, the question`,
    '"When is my tax return due?" with the file attached by its upload key, as bench/load.ts asks it. Mean CPU ms per step, in',
    'the order a turn runs them; "before" is the same table before the performance issue\'s changes',
    "(bench/turn-profile-before.json, measured at 06268ab). Not in these figures: crossing to the D1 and Library objects (the",
    "calls column; locally one workerd thread serves them all) and the local responder's 8 ms pause between words, which",
    "uses no CPU. Each step row times a module as a turn calls it; the last two rows run a whole chat frame as ChatSession",
    "does, so they also show the steps a turn now skips (a first message's token read stands for its revocation check, and",
    "a turn that starts at once uses the documents its admission just checked).",
    "",
    ...profileTable(profile),
  ];
}
