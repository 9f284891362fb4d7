// Proves the sidebar history grouping of spec section 2: Today, Yesterday, Last 7
// Days, Last 30 Days, newest first, at most 10 in total.
import { describe, expect, it } from "vitest";
import { groupChatHistory } from "../../client/lib/history";

const now = new Date(2026, 10, 22, 15, 0, 0);
const at = (daysAgo: number, hour = 12) => new Date(2026, 10, 22 - daysAgo, hour).getTime();

describe("groupChatHistory", () => {
  it("groups by updated_at, newest first", () => {
    const groups = groupChatHistory(
      [
        { session_id: "old", updated_at: at(40), summary: "too old" },
        { session_id: "y", updated_at: at(1), summary: "yesterday" },
        { session_id: "t1", updated_at: at(0, 9), summary: "" },
        { session_id: "t2", updated_at: new Date(at(0, 14)).toISOString(), summary: "later today" },
        { session_id: "w", updated_at: at(5), summary: "this week" },
        { session_id: "m", updated_at: at(20), summary: "this month" },
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.chats.map((c) => c.session_id)])).toEqual([
      ["Today", ["t2", "t1"]],
      ["Yesterday", ["y"]],
      ["Last 7 Days", ["w"]],
      ["Last 30 Days", ["m"]],
    ]);
  });

  it("shows at most 10 chats, filling Last 30 Days only while fewer than 10 are shown", () => {
    const chats = [
      ...Array.from({ length: 9 }, (_, i) => ({ session_id: `today-${i}`, updated_at: at(0, 10 + (i % 4)), summary: "t" })),
      ...Array.from({ length: 5 }, (_, i) => ({ session_id: `month-${i}`, updated_at: at(10 + i), summary: "m" })),
    ];
    const groups = groupChatHistory(chats, now);
    expect(groups.reduce((n, g) => n + g.chats.length, 0)).toBe(10);
    expect(groups.find((g) => g.label === "Last 30 Days")?.chats.map((c) => c.session_id)).toEqual(["month-0"]);
  });
});
