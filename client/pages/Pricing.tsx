// Pricing, Choose Your Plan (spec section 2): a two-column grid of the Settings
// catalogue's plans (one column on small screens). The buttons have no click
// action on this page.
import { SETTINGS_PLAN_IDS } from "../../worker/contract/billing";
import { PlanGrid } from "../components/billing/PlanGrid";
import { pickPlans } from "../lib/billing";
import { usePlanCatalogue } from "../state/billing";

export default function Pricing() {
  const { plans, failed } = usePlanCatalogue();

  return (
    <main className="page pricing-page">
      <h1>Choose Your Plan</h1>
      <PlanGrid plans={pickPlans(plans, SETTINGS_PLAN_IDS)} failed={failed} headingLevel={2} />
    </main>
  );
}
