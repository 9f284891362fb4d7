import { describe, expect, it } from "vitest";
import { periodShare } from "../../worker/lib/period-share";

// two sentences a report writes one after the other: a quarter's amount, then its year's
const buybacks =
  "Share Repurchase Program. During the fourth quarter of fiscal 2022, the Company repurchased 722,457 shares of its common stock at a cost of $328.1 million. " +
  "During fiscal 2022, the Company repurchased 2.2 million shares of its common stock at a cost of $900.0 million. " +
  "As of January 28, 2023, $1.1 billion remained available under the $2.0 billion share repurchase program announced in March 2022.";

describe("a quarter's share of its year", () => {
  it("reads the quarter's amount against its year's, each after the same words, and quotes the quarter's sentence", () => {
    for (const question of [
      "What percent of the total spend on stock repurchases for the year occurred in Q4?",
      "What share of this year's buybacks happened in the fourth quarter?",
    ])
      expect(periodShare(question, buybacks), question).toEqual({
        sentence:
          "During the fourth quarter of fiscal 2022, the Company repurchased 722,457 shares of its common stock at a cost of $328.1 million.",
        share: " ($328.1 million is 36% of $900.0 million)",
      });
  });

  it("works out nothing a question does not ask, nor for another quarter than the one it names", () => {
    expect(periodShare("How much did the company spend on repurchases in Q4?", buybacks)).toBeNull();
    expect(periodShare("What percent of the year's repurchases occurred in the third quarter?", buybacks)).toBeNull();
    // no quarter named: the remaining availability of a program is no share of a year ($1.1 of $2.0 billion)
    expect(periodShare("What percent of the repurchase program remains available?", buybacks)).toBeNull();
  });

  it("needs the same thing counted in both: most of the same words, the amount after the same two words, the quarter's the smaller", () => {
    const question = "What percent of the year's sales came in Q4?";
    const otherThings =
      "During the fourth quarter of fiscal 2022, net sales were $3,226.8 million at our stores. During fiscal 2022, we opened 47 new stores for a cost of $120.0 million.";
    expect(periodShare(question, otherThings)).toBeNull();
    const otherWords =
      "During the fourth quarter of fiscal 2022, net sales were $3,226.8 million. During fiscal 2022, net sales grew to a record of $10,208.6 million.";
    expect(periodShare(question, otherWords)).toBeNull();
    const larger =
      "During the fourth quarter of fiscal 2022, net sales were $3,226.8 million. During fiscal 2022, net sales were $2,000.0 million.";
    expect(periodShare(question, larger)).toBeNull();
    const same =
      "During the fourth quarter of fiscal 2022, net sales were $3,226.8 million. During fiscal 2022, net sales were $10,208.6 million.";
    expect(periodShare(question, same)?.share).toBe(" ($3,226.8 million is 32% of $10,208.6 million)");
  });
});
