// One plan (spec sections 2 and 3): name, price with period, the plan's button,
// a check-marked feature list, an optional note and a "Most popular" mark. The
// card under the pointer or holding keyboard focus gets a highlighted border.
import { useId } from "react";
import { formatPrice, type Plan } from "../../../worker/contract/billing";
import { Icon } from "../Icon";
import "./billing.css";

export type PlanHeadingLevel = 2 | 3 | 4;

export interface PlanCardProps {
  plan: Plan;
  /** the heading level of the plan name inside the surrounding page or panel */
  headingLevel?: PlanHeadingLevel;
  /** what the button does; without it the button has no click action (the pricing page) */
  onSelect?: (plan: Plan) => void;
  /** the button cannot be used (signed out, or another checkout is starting) */
  disabled?: boolean;
  /** this plan's checkout is starting */
  busy?: boolean;
  /** id of a note that explains why the button is disabled */
  describedBy?: string;
}

export function PlanCard({ plan, headingLevel = 3, onSelect, disabled = false, busy = false, describedBy }: PlanCardProps) {
  const nameId = useId();
  const Heading = `h${headingLevel}` as "h2" | "h3" | "h4";

  return (
    <article className={`plan-card${plan.popular ? " plan-card--popular" : ""}`} aria-labelledby={nameId}>
      {plan.popular && <span className="plan-badge">Most popular</span>}
      <Heading id={nameId} className="plan-name">
        {plan.name}
      </Heading>
      <p className="plan-price">{formatPrice(plan)}</p>
      <button
        type="button"
        className="btn btn-primary btn-block plan-button"
        onClick={onSelect ? () => onSelect(plan) : undefined}
        disabled={disabled || busy}
        aria-busy={busy || undefined}
        aria-describedby={describedBy}
      >
        {plan.buttonText}
      </button>
      <ul className="plan-features">
        {plan.features.map((feature) => (
          <li key={feature}>
            <span className="plan-check">
              <Icon name="check" size={16} />
            </span>
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      {plan.note && <p className="plan-note">{plan.note}</p>}
    </article>
  );
}
