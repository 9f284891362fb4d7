// Subscription (spec sections 2, 4 and 8): "Loading subscription info..." until the
// first status call finishes; active -> the Active Subscription box (plan name,
// Renews <date>, Cancel Subscription) and no cards; cancelling -> the Subscription
// Cancelled box (Access until <date>) plus the cards; anything else -> the cards.
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from "react";
import { BILLING_MESSAGES, SETTINGS_PLAN_IDS, type Plan, type SubscriptionStatusResponse } from "../../../worker/contract/billing";
import { formatLongDate, pickPlans } from "../../lib/billing";
import { cancelSubscription, loadSubscription, settingsReturnPath, useCheckout, usePlanCatalogue } from "../../state/billing";
import "../billing/billing.css";
import { PlanGrid } from "../billing/PlanGrid";

export function SubscriptionPanel() {
  const { plans, failed } = usePlanCatalogue();
  const { pendingPlanId, checkout } = useCheckout(settingsReturnPath);
  const [subscription, setSubscription] = useState<SubscriptionStatusResponse | null>(null);
  const [loaded, setLoaded] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const live = useRef(true);

  const loadStatus = useCallback(async () => {
    try {
      const status = await loadSubscription();
      if (live.current) setSubscription(status);
    } catch (err) {
      // Only logged (spec section 8): the plan cards show instead.
      console.error("subscription status failed", err);
    } finally {
      if (live.current) setLoaded(true);
    }
  }, []);

  useEffect(() => {
    live.current = true;
    void loadStatus();
    return () => {
      live.current = false;
    };
  }, [loadStatus]);

  async function cancel() {
    if (cancelling || !window.confirm(BILLING_MESSAGES.cancelConfirm)) return;
    setCancelling(true);
    let ok = false;
    try {
      const res = await cancelSubscription();
      ok = true;
      window.alert(res?.message || BILLING_MESSAGES.canceledFallback);
    } catch (err) {
      console.error("cancel subscription failed", err);
      window.alert(BILLING_MESSAGES.cancelFailed);
    } finally {
      if (live.current) setCancelling(false);
    }
    if (ok && live.current) await loadStatus();
  }

  const status = subscription?.status ?? "none";
  const planName = planLabel(plans, failed, subscription?.planId ?? null);
  const periodEnd = formatLongDate(subscription?.currentPeriodEnd);

  return (
    <div className="settings-form subscription-panel">
      <h3>Subscription Plans</h3>
      {!loaded ? (
        <p className="muted">{BILLING_MESSAGES.loading}</p>
      ) : (
        <>
          {status === "active" && (
            <StatusBox title="Active Subscription" variant="active">
              {planName && <p className="subscription-plan">{planName}</p>}
              {periodEnd && <p>Renews {periodEnd}</p>}
              <button
                type="button"
                className="btn btn-danger-outline"
                onClick={cancel}
                disabled={cancelling}
                aria-busy={cancelling || undefined}
              >
                {cancelling ? "Cancelling..." : "Cancel Subscription"}
              </button>
            </StatusBox>
          )}
          {status === "cancelling" && (
            <StatusBox title="Subscription Cancelled" variant="cancelled">
              {planName && <p className="subscription-plan">{planName}</p>}
              {periodEnd && <p>Access until {periodEnd}</p>}
            </StatusBox>
          )}
          {status !== "active" && (
            <PlanGrid
              plans={pickPlans(plans, SETTINGS_PLAN_IDS)}
              failed={failed}
              headingLevel={4}
              onSelect={(plan) => void checkout(plan.id)}
              pendingPlanId={pendingPlanId}
            />
          )}
        </>
      )}
    </div>
  );
}

/** The subscribed plan's name from the whole catalogue; its id if the catalogue has no such plan or failed. */
function planLabel(plans: readonly Plan[] | null, failed: boolean, planId: string | null): string | null {
  if (!planId) return null;
  const plan = plans?.find((p) => p.id === planId);
  if (plan) return plan.name;
  return plans || failed ? planId : null;
}

function StatusBox({ title, variant, children }: { title: string; variant: "active" | "cancelled"; children: ReactNode }) {
  const titleId = useId();
  return (
    <section className={`subscription-box subscription-box--${variant}`} aria-labelledby={titleId}>
      <h4 id={titleId}>{title}</h4>
      {children}
    </section>
  );
}
