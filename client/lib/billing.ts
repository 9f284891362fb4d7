// Plans on the client (spec sections 3, 4 and 8): which plans a screen shows
// and how dates are written. The calls are in state/billing.ts.
import type { Plan } from "../../worker/contract/billing";

/** The plans of one screen (SETTINGS_PLAN_IDS or UPGRADE_PLAN_IDS), kept in catalogue order. */
export function pickPlans(plans: readonly Plan[] | null, ids: readonly string[]): Plan[] | null {
  return plans ? plans.filter((p) => ids.includes(p.id)) : null;
}

/** en-US long form ("December 22, 2026") in the viewer's time zone; null when missing or invalid. */
export function formatLongDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
}
