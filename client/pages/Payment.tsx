// Upgrade plan (spec sections 2 and 3): the Monthly and Yearly plans with working
// checkout buttons. Signed-out users get a link to log in; their buttons are
// disabled and point at that note.
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import { UPGRADE_PLAN_IDS } from "../../worker/contract/billing";
import { PlanGrid } from "../components/billing/PlanGrid";
import { pickPlans } from "../lib/billing";
import { useCheckout, usePlanCatalogue } from "../state/billing";
import { userInfo } from "../state/user";

const LOGIN_NOTE_ID = "payment-login-note";

export default function Payment() {
  const { user } = useSnapshot(userInfo);
  const signedIn = Boolean(user);
  const { plans, failed } = usePlanCatalogue();
  const { pendingPlanId, checkout } = useCheckout();

  return (
    <main className="page payment-page">
      <h1>Upgrade your plan</h1>
      <p className="muted">Choose a monthly or yearly subscription.</p>
      {!signedIn && (
        <p id={LOGIN_NOTE_ID} className="plan-login-note">
          <Link to="/app/auth/login">Log in</Link> to subscribe to a plan.
        </p>
      )}
      <PlanGrid
        plans={pickPlans(plans, UPGRADE_PLAN_IDS)}
        failed={failed}
        headingLevel={2}
        onSelect={signedIn ? (plan) => void checkout(plan.id) : undefined}
        disabled={!signedIn}
        pendingPlanId={pendingPlanId}
        describedBy={signedIn ? undefined : LOGIN_NOTE_ID}
      />
    </main>
  );
}
