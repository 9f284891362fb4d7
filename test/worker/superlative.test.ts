import { describe, expect, it } from "vitest";
import { listedExtreme } from "../../worker/lib/superlative";

// a list as a 10-Q writes it, one item per category, each with its change and the way it went
const categories =
  "Notable comparable sales changes by revenue category were as follows: • Computing: The 6.4% comparable sales decline was driven by laptops. " +
  "• Appliances: The 16.1% comparable sales decline was driven by large appliances. • Entertainment: The 9.0% comparable sales growth was driven by gaming, " +
  "partially offset by declines in drones. • Services: The 7.6% comparable sales growth was driven by memberships.";

describe("the item of a list a superlative asks", () => {
  it("answers the highest asked with the item of the highest change, and shows the others' figures with their signs", () => {
    expect(listedExtreme("Which category performed the best?", categories)).toEqual({
      item: "Entertainment: The 9.0% comparable sales growth was driven by gaming, partially offset by declines in drones.",
      among: " (the highest of the 4 listed: Entertainment 9.0%, Services 7.6%, Computing -6.4%, Appliances -16.1%)",
    });
    expect(listedExtreme("What category grew the most last quarter?", categories)?.item).toMatch(/^Entertainment:/);
  });

  it("answers the lowest asked, and the biggest fall, with the item of the lowest change", () => {
    for (const question of ["Which category did worst?", "Which category had the biggest decline in comparable sales?"])
      expect(listedExtreme(question, categories)?.item, question).toBe(
        "Appliances: The 16.1% comparable sales decline was driven by large appliances.",
      );
  });

  it("chooses nothing for a question without a superlative, a list without a change per item, a short list or a tie", () => {
    expect(listedExtreme("How did the Entertainment category do?", categories)).toBeNull();
    // a company's name is no superlative: "Best Buy", capitalised or the file's own name
    expect(listedExtreme("What was Best Buy's revenue in fiscal 2023?", categories)).toBeNull();
    expect(listedExtreme("what was best buy's revenue in fiscal 2023?", categories, ["bestbuy202310k"])).toBeNull();
    expect(listedExtreme("Which best buy category did best?", categories, ["bestbuy202310k"])?.item).toMatch(/^Entertainment:/);
    expect(listedExtreme("Which category had the Highest growth?", categories)?.item).toMatch(/^Entertainment:/);
    const noWay =
      "Revenue by category: • Computing: 42% of revenue in the quarter. • Appliances: 14% of revenue. • Entertainment: 6% of revenue.";
    expect(listedExtreme("Which category was the largest?", noWay)).toBeNull();
    const short =
      "Changes were: • Computing: The 6.4% decline was driven by laptops. • Services: The 7.6% growth was driven by memberships.";
    expect(listedExtreme("Which category performed the best?", short)).toBeNull();
    const tie =
      "Changes were: • Computing: The 6.4% growth was driven by laptops. • Services: The 6.4% growth was driven by memberships. • Gaming: The 2.0% decline was driven by drones.";
    expect(listedExtreme("Which category performed the best?", tie)).toBeNull();
  });
});
