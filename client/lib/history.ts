// Groups the sidebar chat history by updated_at (spec section 2): Today,
// Yesterday, Last 7 Days, Last 30 Days, newest first, at most 10 in total; the
// Last 30 Days group only fills while fewer than 10 have been shown.
import type { ChatListItem } from "../../worker/contract/protocol";
import { MAX_HISTORY_CHATS } from "./constants";

/** A chat list entry as grouping reads it: updated_at may also be an ISO date (a list saved by an older version). */
export type HistoryEntry = Omit<ChatListItem, "updated_at"> & { updated_at: ChatListItem["updated_at"] | string };

export interface HistoryGroup<T extends HistoryEntry = ChatListItem> {
  label: "Today" | "Yesterday" | "Last 7 Days" | "Last 30 Days";
  chats: T[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

function timeOf(value: number | string): number {
  const t = typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(t) ? t : 0;
}

export function groupChatHistory<T extends HistoryEntry>(chats: readonly T[], now = new Date()): HistoryGroup<T>[] {
  const startOfToday = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  const bounds: [HistoryGroup<T>["label"], number][] = [
    ["Today", startOfToday],
    ["Yesterday", startOfToday - DAY_MS],
    ["Last 7 Days", startOfToday - 7 * DAY_MS],
    ["Last 30 Days", startOfToday - 30 * DAY_MS],
  ];
  const sorted = [...chats].sort((a, b) => timeOf(b.updated_at) - timeOf(a.updated_at));
  const groups: HistoryGroup<T>[] = bounds.map(([label]) => ({ label, chats: [] }));
  let shown = 0;
  for (const chat of sorted) {
    if (shown >= MAX_HISTORY_CHATS) break;
    const t = timeOf(chat.updated_at);
    const index = bounds.findIndex(([, start]) => t >= start);
    if (index === -1) continue; // older than 30 days
    groups[index]!.chats.push(chat);
    shown++;
  }
  return groups.filter((g) => g.chats.length > 0);
}
