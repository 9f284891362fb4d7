// Plans and subscriptions (spec sections 3, 4 and 8): the plan catalogue,
// Stripe Checkout (or the local test checkout), the subscription's status and
// cancelling it.
import { useCallback, useEffect, useRef, useState } from "react";
import {
  BILLING_MESSAGES,
  type CancelResponse,
  type CheckoutResponse,
  type Plan,
  type PlansResponse,
  type SubscriptionStatusResponse,
} from "../../worker/contract/billing";
import { api } from "../lib/api";
import { browserNavigation } from "../lib/navigation";
import { SETTINGS_PARAM } from "./app";
import { userInfo } from "./user";

export interface PlanCatalogue {
  /** every plan in catalogue order; null until loaded (or after a failure) */
  plans: Plan[] | null;
  failed: boolean;
}

/** GET /api/payment/plans once per mount. A failure is logged and reported as `failed`. */
export function usePlanCatalogue(): PlanCatalogue {
  const [catalogue, setCatalogue] = useState<PlanCatalogue>({ plans: null, failed: false });

  useEffect(() => {
    let live = true;
    api<PlansResponse>("GET", "/api/payment/plans")
      .then((r) => {
        if (live) setCatalogue({ plans: Array.isArray(r?.plans) ? r.plans : [], failed: false });
      })
      .catch((err) => {
        console.error("plans failed", err);
        if (live) setCatalogue({ plans: null, failed: true });
      });
    return () => {
      live = false;
    };
  }, []);

  return catalogue;
}

/** Only http(s) destinations (absolute, or a path on this site such as /dev/checkout) are followed. */
function checkoutTarget(url: unknown): string | null {
  if (typeof url !== "string" || !url) return null;
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}

/** The page Settings is open on, marked so a cancelled checkout opens Settings there again. */
export function settingsReturnPath(): string {
  const url = new URL(window.location.href);
  url.searchParams.set(SETTINGS_PARAM, "subscription");
  return url.pathname + url.search;
}

/**
 * POST /api/payment/create-checkout-session { planId, email, returnTo }, then
 * leave for the returned url. Any failure alerts "Something went wrong. Please
 * try again.".
 */
export async function startCheckout(planId: string, returnTo?: string): Promise<boolean> {
  try {
    const email = userInfo.user?.email ?? "";
    const res = await api<CheckoutResponse>("POST", "/api/payment/create-checkout-session", { planId, email, returnTo });
    const target = checkoutTarget(res?.url);
    if (!target) throw new Error("The checkout session has no usable url.");
    browserNavigation.assign(target);
    return true;
  } catch (err) {
    console.error("create-checkout-session failed", err);
    window.alert(BILLING_MESSAGES.checkoutFailed);
    return false;
  }
}

/** Checkout with a pending plan id, so its button is disabled and double clicks start one session. */
export function useCheckout(returnTo?: () => string): { pendingPlanId: string | null; checkout: (planId: string) => Promise<void> } {
  const [pendingPlanId, setPendingPlanId] = useState<string | null>(null);
  const pending = useRef(false);
  const live = useRef(true);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  const checkout = useCallback(async (planId: string) => {
    if (pending.current) return;
    pending.current = true;
    setPendingPlanId(planId);
    try {
      await startCheckout(planId, returnTo?.());
    } finally {
      pending.current = false;
      if (live.current) setPendingPlanId(null);
    }
  }, []);

  return { pendingPlanId, checkout };
}

export function loadSubscription(): Promise<SubscriptionStatusResponse> {
  return api<SubscriptionStatusResponse>("POST", "/api/payment/subscription/status", {});
}

/** Cancels at the end of the paid period; the answer's message is what the user is told. */
export function cancelSubscription(): Promise<CancelResponse> {
  return api<CancelResponse>("POST", "/api/payment/subscription/cancel", {});
}
