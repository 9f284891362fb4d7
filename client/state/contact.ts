// Contact Us (spec sections 2, 5 and 8): sending the form. Works signed out
// too: api() only adds the bearer header when a token exists.
import type { ContactRequest } from "../../worker/contract/mail";
import type { StatusMessage } from "../../worker/contract/messages";
import { api } from "../lib/api";

export function sendContactMessage(message: ContactRequest): Promise<StatusMessage> {
  return api<StatusMessage>("POST", "/api/contactUs", message);
}
