// Request validation with the shared zod schemas: a failure becomes a 400 whose
// message is the first spec message, plus the first message per field.
import { zValidator } from "@hono/zod-validator";
import type { ZodType } from "zod";
import { firstErrors } from "../contract/validation";
import { ApiError } from "../errors";

export function valid<T extends ZodType, Target extends "json" | "query">(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) {
      const fields = firstErrors(result.error);
      throw new ApiError(400, Object.values(fields)[0] ?? "Invalid request.", fields);
    }
  });
}
