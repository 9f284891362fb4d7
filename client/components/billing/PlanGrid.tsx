// The plan cards of one screen in a two-column grid (one column on small screens),
// with a loading line until the catalogue arrives and a message if it fails.
import type { Plan } from "../../../worker/contract/billing";
import { PlanCard, type PlanHeadingLevel } from "./PlanCard";
import "./billing.css";

export interface PlanGridProps {
  /** null while the catalogue loads */
  plans: readonly Plan[] | null;
  failed?: boolean;
  headingLevel?: PlanHeadingLevel;
  onSelect?: (plan: Plan) => void;
  disabled?: boolean;
  pendingPlanId?: string | null;
  describedBy?: string;
}

export function PlanGrid({
  plans,
  failed = false,
  headingLevel,
  onSelect,
  disabled = false,
  pendingPlanId = null,
  describedBy,
}: PlanGridProps) {
  if (failed) return <p className="status-line error">The plans could not be loaded. Please try again later.</p>;
  if (!plans) return <p className="muted">Loading plans...</p>;
  if (plans.length === 0) return <p className="muted">No plans are available right now.</p>;

  return (
    <div className="plan-grid">
      {plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          headingLevel={headingLevel}
          onSelect={onSelect}
          disabled={disabled || (pendingPlanId !== null && pendingPlanId !== plan.id)}
          busy={pendingPlanId === plan.id}
          describedBy={describedBy}
        />
      ))}
    </div>
  );
}
