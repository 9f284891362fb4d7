// Does a user's chat slow down as other users add documents? One user's time to
// the first streamed chunk over their own Pub 17, alone and then with 20 other
// users each holding an indexed Pub 17, in the same run on one local product.
// Each user's chunks live in their own Library, so the figure should not move.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CORPUS } from "./ingest";
import { api, ask, PASSWORD, startProduct, subscribe, upload, waitIndexed } from "./product";
import { median } from "./retrieval";

const P17 = join(CORPUS, "irs/p17.pdf");
const OTHER_USERS = 20;
/** Asked ROUNDS times each, in fresh chats. */
const QUESTIONS = [
  "How long should I keep my tax records?",
  "Who must file a tax return?",
  "Can I deduct charitable gifts of cash?",
  "When is my return due if I live abroad?",
  "What is the standard deduction for a single filer?",
];
const ROUNDS = 6;

export interface ScaleFigures {
  otherUsers: number;
  /** questions per measurement */
  questions: number;
  aloneMs: number;
  crowdedMs: number;
}

async function account(base: string, prefix: string) {
  const email = `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  for (;;) {
    try {
      const { token } = await api<{ token: string }>(base, "POST", "/api/auth/signup", { body: { email, password: PASSWORD } });
      return { email, token };
    } catch (err) {
      // sign-ups are limited per IP (10 a minute): wait for the window, as 21 people on one network would
      if (!String(err).includes(" 429 ")) throw err;
      await new Promise((resolve) => setTimeout(resolve, 15_000));
    }
  }
}

async function indexP17(base: string, token: string) {
  const uploaded = await upload(base, token, "p17.pdf", new Uint8Array(readFileSync(P17)));
  await waitIndexed(base, token, "p17.pdf", uploaded.fileId);
  return uploaded;
}

/** Median time to first chunk over the questions, each asked ROUNDS times in fresh chats. */
async function firstChunk(base: string, user: { email: string; token: string }, s3Key: string): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const q of QUESTIONS) {
      const { firstTokenMs } = await ask(base, user.token, user.email, q, s3Key);
      if (firstTokenMs !== null) times.push(firstTokenMs);
    }
  }
  return median(times);
}

export async function benchScale(): Promise<ScaleFigures | null> {
  if (!existsSync(P17)) return null;
  const product = await startProduct();
  try {
    const me = await account(product.base, "scale-me");
    await subscribe(product.base, me.token, me.email); // more questions than the free plan's daily messages
    const mine = await indexP17(product.base, me.token);
    await firstChunk(product.base, me, mine.s3Key); // warm up
    const aloneMs = await firstChunk(product.base, me, mine.s3Key);
    for (let i = 0; i < OTHER_USERS; i++) await indexP17(product.base, (await account(product.base, `scale-other-${i}`)).token);
    const crowdedMs = await firstChunk(product.base, me, mine.s3Key);
    return { otherUsers: OTHER_USERS, questions: QUESTIONS.length * ROUNDS, aloneMs, crowdedMs };
  } finally {
    await product.stop();
  }
}
