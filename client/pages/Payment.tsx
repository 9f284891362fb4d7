// Upgrade plan (spec sections 2 and 3): the Monthly and Yearly plans with working
// checkout buttons. Signed-out users get a link to log in, and a subscriber a
// note that they already have a plan, with Settings to manage it; either way the
// buttons are disabled and point at that note.
import { useEffect, useState } from "react";
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import { BILLING_MESSAGES, UPGRADE_PLAN_IDS } from "../../worker/contract/billing";
import { PlanGrid } from "../components/billing/PlanGrid";
import { pickPlans } from "../lib/billing";
import { openSettings } from "../state/app";
import { loadSubscription, useCheckout, usePlanCatalogue } from "../state/billing";
import { userInfo } from "../state/user";

const LOGIN_NOTE_ID = "payment-login-note";
const SUBSCRIBED_NOTE_ID = "payment-subscribed-note";

export default function Payment() {
  const { user } = useSnapshot(userInfo);
  const signedIn = Boolean(user);
  const { plans, failed } = usePlanCatalogue();
  const { pendingPlanId, checkout } = useCheckout();
  const [subscribed, setSubscribed] = useState(false);

  useEffect(() => {
    if (!signedIn) return setSubscribed(false);
    let live = true;
    loadSubscription()
      .then((status) => live && setSubscribed(status?.status === "active"))
      // only logged: the plans stay choosable, and the server refuses a second subscription
      .catch((err: unknown) => console.error("subscription status failed", err));
    return () => {
      live = false;
    };
  }, [signedIn]);
  const noteId = !signedIn ? LOGIN_NOTE_ID : subscribed ? SUBSCRIBED_NOTE_ID : undefined;

  return (
    <main className="page payment-page">
      <h1>Upgrade your plan</h1>
      <p className="muted">Choose a monthly or yearly subscription.</p>
      {!signedIn && (
        <p id={LOGIN_NOTE_ID} className="plan-login-note">
          <Link to="/app/auth/login">Log in</Link> to subscribe to a plan.
        </p>
      )}
      {subscribed && (
        <p id={SUBSCRIBED_NOTE_ID} className="plan-login-note">
          {BILLING_MESSAGES.alreadySubscribed}{" "}
          <button type="button" className="link-btn" onClick={() => openSettings("subscription")}>
            Manage it in Settings
          </button>
          .
        </p>
      )}
      <PlanGrid
        plans={pickPlans(plans, UPGRADE_PLAN_IDS)}
        failed={failed}
        headingLevel={2}
        onSelect={signedIn && !subscribed ? (plan) => void checkout(plan.id) : undefined}
        disabled={!signedIn || subscribed}
        pendingPlanId={pendingPlanId}
        describedBy={noteId}
      />
    </main>
  );
}
