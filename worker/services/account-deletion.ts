// Deleting an account removes every trace of it: subscription renewals stop,
// each chat's Durable Object is emptied (the user's own open sockets are signed
// out, so their tabs go to login; members' are told the chat is gone), the Library
// (chunks, index, lifecycle) and the vectors go, the R2 objects go, and finally
// the shares of other users' chats with its address, and the D1 user row, whose
// foreign keys cascade to sessions, documents, chats, the shares of its own
// chats, the Drive connection and the subscription. The D1 row goes
// last, so a failure half-way leaves an account the user can delete again.
import { eq } from "drizzle-orm";
import { MESSAGES } from "../contract/messages";
import { chatSession, type ChatSessionBinding } from "../chat/stub";
import type { Db } from "../db/client";
import { chatShares, chats, subscriptions, users } from "../db/schema";
import { ApiError } from "../errors";
import { library, type LibraryBinding } from "../library/stub";
import type { PaymentProvider } from "../providers/payments";
import { namedAfter } from "./chats";
import { deleteVectors, type VectorBindings } from "./vectors";

export interface AccountDeletionDeps extends VectorBindings, LibraryBinding, ChatSessionBinding {
  db: Db;
  bucket: R2Bucket;
  payments: PaymentProvider | null;
}

const R2_LIST_LIMIT = 1000;

/** The typed confirmation must be the account's own e-mail address. */
export async function deleteAccount(
  deps: AccountDeletionDeps,
  { userId, confirmEmail }: { userId: string; confirmEmail: string },
): Promise<void> {
  const user = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw new ApiError(404, MESSAGES.notFound);
  if (confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) throw new ApiError(400, MESSAGES.deleteAccountConfirm);

  const subscription = await deps.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).get();
  if (subscription?.stripeSubscriptionId && deps.payments?.name === "stripe" && subscription.status !== "canceled") {
    await deps.payments.cancelAtPeriodEnd(subscription.stripeSubscriptionId);
  }

  const owned = await deps.db.select({ sessionId: chats.sessionId }).from(chats).where(eq(chats.userId, userId)).all();
  for (const { sessionId } of owned) await chatSession(deps, sessionId).erase(userId);

  const held = await library(deps, userId).erase();
  await deleteVectors(deps, { ids: held.chunkIds });
  // a chat of theirs with no row yet (its first answer still being written) is emptied too: nothing of it
  // may reach whoever signs up with the same address
  const erased = new Set(owned.map((o) => o.sessionId));
  for (const chatId of held.chats) if (!erased.has(chatId) && namedAfter(chatId, user.email)) await chatSession(deps, chatId).erase(userId);
  await deleteObjects(deps.bucket, `users/${userId}/`);
  // chats shared with this address go too: whoever signs up with it later was never invited
  await deps.db.delete(chatShares).where(eq(chatShares.email, user.email));
  await deps.db.delete(users).where(eq(users.id, userId));
}

async function deleteObjects(bucket: R2Bucket, prefix: string): Promise<void> {
  for (;;) {
    const listed = await bucket.list({ prefix, limit: R2_LIST_LIMIT });
    if (listed.objects.length === 0) return;
    await bucket.delete(listed.objects.map((o) => o.key));
    if (!listed.truncated) return;
  }
}
