// Known failures carry the status and the message a user should see; app.onError
// turns them into `{ status: "error", message }`. Anything else is a generic 500.
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { MESSAGES } from "./contract/messages";

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const unauthorized = () => new ApiError(401, MESSAGES.unauthorized);
export const notFound = () => new ApiError(404, MESSAGES.notFound);
