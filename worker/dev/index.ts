// Every development-only page under /dev, in one router that app.ts loads lazily
// (and only in a development build, see ../dev-tools.ts): the mailbox, the test
// checkout standing in for Stripe, the Google emulator, and the benchmark's
// in-runtime reference extraction.
import { Hono } from "hono";
import { EMULATOR_PATH } from "../providers/google";
import { benchReference } from "./bench-reference";
import { testCheckout } from "./checkout";
import { googleEmulator } from "./google";
import { mailbox } from "./mailbox";

export const devRoutes = new Hono<{ Bindings: Env }>()
  .route("/dev/mailbox", mailbox)
  .route("/dev/checkout", testCheckout)
  .route(EMULATOR_PATH, googleEmulator)
  .route("/dev/bench", benchReference);
