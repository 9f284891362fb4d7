import { readdirSync } from "node:fs";
import { memoryLibrary, index } from "./offline";
import { retrievePassages } from "../worker/services/retrieval";
import { localAnswer } from "../worker/providers/llm/local";
const { index: lib, env } = memoryLibrary();
const files = readdirSync("/work/shared/corpus/sec_financebench").filter((f) => f.endsWith(".pdf"));
const qs = ["What were total net revenues last year?", "Who is the chief executive officer?", "What are the main risks to the business?", "How much cash does the company have?", "How many employees are there?", "What was the net income?", "Did the company pay a dividend?"];
let n = 0;
for (const f of files) {
  const id = `d${n++}`;
  await index(lib, id, "/work/shared/corpus/sec_financebench/" + f);
  for (const q of qs) {
    const passages = await retrievePassages(env, { userId: "bench-user", documentIds: [id], question: q });
    const a = localAnswer({ question: q, passages, history: [], anonymous: false });
    console.log(`${f.slice(0, 14)} | ${q.slice(0, 30)} | ${a.split("\n")[0]!.slice(0, 170)}`);
  }
}
