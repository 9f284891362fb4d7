// Request validation with the shared zod schemas: a failure becomes a 400 whose
// message is the first spec message, plus the first message per field.
import { zValidator } from "@hono/zod-validator";
import type { ZodType } from "zod";
import { MESSAGES } from "../contract/messages";
import { firstErrors } from "../contract/validation";
import "../contract/zod-errors";
import { ApiError } from "../errors";

export function valid<T extends ZodType, Target extends "json" | "query">(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      // a body that is an array, a string or null has no fields to name: zod's "expected object" is no user's words
      const notObject = result.error.issues.some((issue) => issue.path.length === 0 && issue.code === "invalid_type");
      if (notObject) throw new ApiError(400, MESSAGES.jsonObjectRequired);
      const fields = firstErrors(result.error);
      throw new ApiError(400, Object.values(fields)[0] ?? "Invalid request.", fields);
    }
  });
}
