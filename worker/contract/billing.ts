// Plans and subscriptions (spec sections 3, 4, 8 and 9), shared by the client and
// the Worker. The catalogue itself lives in D1 (seeded by migration 0002).

export interface Plan {
  id: string;
  name: string;
  /** dollars */
  price: number;
  period: "month" | "year";
  buttonText: string;
  features: string[];
  note: string | null;
  popular: boolean;
}

/** GET /api/payment/plans[?catalogue=settings|upgrade] */
export interface PlansResponse {
  plans: Plan[];
}

/** The plans each screen shows (spec section 3: two catalogues). */
export const SETTINGS_PLAN_IDS = ["premium_monthly", "pro_annual"] as const;
export const UPGRADE_PLAN_IDS = ["monthly", "yearly"] as const;

/**
 * POST /api/payment/create-checkout-session { planId, email, returnTo? }: a
 * cancelled checkout returns to `returnTo`, the app page it was started from,
 * or else to the upgrade page.
 */
export interface CheckoutResponse {
  sessionId: string;
  url: string;
}

export type SubscriptionStatus = "active" | "cancelling" | "canceled" | "past_due" | "none";

/** POST /api/payment/subscription/status */
export interface SubscriptionStatusResponse {
  status: SubscriptionStatus;
  planId: string | null;
  /** ISO 8601, or null */
  currentPeriodEnd: string | null;
}

/** POST /api/payment/subscription/cancel -> { message } */
export interface CancelResponse {
  message: string;
}

export const BILLING_MESSAGES = {
  checkoutFailed: "Something went wrong. Please try again.",
  canceledFallback: "Canceled.",
  cancelFailed: "Failed to cancel. Try again.",
  cancelConfirm: "Are you sure you want to cancel your subscription?",
  loading: "Loading subscription info...",
  unknownPlan: "Unknown plan.",
  noSubscription: "You have no active subscription to cancel.",
  alreadySubscribed: "You already have an active subscription.",
} as const;

export function formatPrice(plan: Pick<Plan, "price" | "period">): string {
  const amount = Number.isInteger(plan.price) ? `$${plan.price}` : `$${plan.price.toFixed(2)}`;
  return `${amount} / ${plan.period}`;
}
