// The words a request's validation error is given in where its schema gives none:
// "File hashes must be a list.", not zod's "Invalid input: expected array, received
// string". Installed once as zod's error map for what no schema words itself.
import { z } from "zod";

/** "file_hashes" -> "File hashes", "pageToken" -> "Page token"; a list's item ("file_hashes", 1) -> "Each of file hashes". */
function fieldName(path: readonly PropertyKey[]): string {
  const names = path.filter((p): p is string => typeof p === "string");
  const name = (names.at(-1) ?? "the request")
    .replace(/_/g, " ")
    .replace(/(?<=\p{Ll})(?=\p{Lu})/gu, " ")
    .toLowerCase();
  const label = name.charAt(0).toUpperCase() + name.slice(1);
  return typeof path.at(-1) === "number" ? `Each of ${name}` : label;
}

const KINDS: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

/** What a value of this origin is counted in: "text can have at most 200 characters", "a list at most 50 items". */
const UNITS: Record<string, string> = { string: "characters", array: "items" };

z.config({
  customError: (issue) => {
    const field = fieldName(issue.path ?? []);
    switch (issue.code) {
      case "invalid_type":
        return issue.input === undefined ? `${field} is required.` : `${field} must be ${KINDS[issue.expected] ?? issue.expected}.`;
      case "too_small": {
        const unit = UNITS[issue.origin];
        if (unit === "characters" && Number(issue.minimum) === 1) return `${field} is required.`;
        return `${field} must have at least ${issue.minimum}${unit ? ` ${unit}` : ""}.`;
      }
      case "too_big": {
        const unit = UNITS[issue.origin];
        return `${field} can have at most ${issue.maximum}${unit ? ` ${unit}` : ""}.`;
      }
      case "invalid_format":
      case "invalid_value":
      case "invalid_union":
        return `${field} is not valid.`;
      default:
        return undefined;
    }
  },
});
