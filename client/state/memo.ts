// The chat memo (spec sections 2, 4 and 8): a summary of a chat, generated and
// e-mailed by the server.
import { MEMO_MESSAGES, type MemoResponse } from "../../worker/contract/mail";
import { api, ApiRequestError } from "../lib/api";

/** Sends the memo of `sessionId` to `email`; throws ApiRequestError with the message to show when it was not sent. */
export async function sendMemo(sessionId: string, email: string): Promise<void> {
  const result = await api<MemoResponse>("POST", "/api/chat/sendMemo", { session_id: sessionId, email });
  if (result?.status && result.status !== "success") throw new ApiRequestError(result.message || MEMO_MESSAGES.sendFailed, 200);
}
