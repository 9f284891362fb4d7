// Proves the plans and subscription screens follow the spec (sections 2, 3, 4, 8
// and 9): the Settings Subscription panel ("Loading subscription info..." until
// the first status call finishes; the Active Subscription box with the plan name,
// "Renews <en-US long date>" and Cancel Subscription, and no cards; the cancel
// flow with its confirm and alerts; the Subscription Cancelled box with "Access
// until" plus the cards; the cards otherwise), Stripe Checkout ({ planId, email }
// then a full-page navigation to the returned url; "Something went wrong. Please
// try again." on failure), the Pricing page (two cards, buttons with no action)
// and the Upgrade page (Monthly and Yearly, note, "Most popular", signed-out
// note). fetch is a stub; window.alert/confirm and browserNavigation are spies.
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Plan, SubscriptionStatusResponse } from "../../worker/contract/billing";
import { PlanCard } from "../../client/components/billing/PlanCard";
import { SubscriptionPanel } from "../../client/components/settings/SubscriptionPanel";
import { formatLongDate } from "../../client/lib/billing";
import { browserNavigation } from "../../client/lib/navigation";
import Payment from "../../client/pages/Payment";
import Pricing from "../../client/pages/Pricing";
import { appInfo, closeSettings } from "../../client/state/app";
import { userInfo } from "../../client/state/user";
import type { User } from "../../worker/contract/validation";
import { stubJsonFetch } from "../helpers/fetch-stub";

// ---------------------------------------------------------------- fixtures

// The catalogue of migration 0002, in catalogue order.
const PLANS: Plan[] = [
  {
    id: "premium_monthly",
    name: "Premium (Monthly)",
    price: 29.99,
    period: "month",
    buttonText: "Choose Premium",
    features: ["Unlimited access to all features", "Priority customer support", "Advanced analytics", "Custom integrations"],
    note: null,
    popular: false,
  },
  {
    id: "pro_annual",
    name: "Pro (Annual)",
    price: 299.99,
    period: "year",
    buttonText: "Choose Pro",
    features: ["All Premium features", "2 months free", "Dedicated account manager", "Custom training sessions"],
    note: null,
    popular: false,
  },
  {
    id: "monthly",
    name: "Monthly Plan",
    price: 3,
    period: "month",
    buttonText: "Subscribe Monthly",
    features: ["Full access to all features", "Unlimited messages", "Priority support", "Advanced AI capabilities"],
    note: null,
    popular: false,
  },
  {
    id: "yearly",
    name: "Yearly Plan",
    price: 20,
    period: "year",
    buttonText: "Subscribe Yearly",
    features: ["Everything in Monthly plan", "Best value for money", "Annual billing"],
    note: "Save $16 compared to monthly",
    popular: true,
  },
];

// Midday UTC, so the calendar day is the 22nd in every time zone from UTC-11 to UTC+11.
const PERIOD_END = "2026-12-22T12:00:00.000Z";

const PLANS_URL = "/api/payment/plans";
const STATUS_URL = "/api/payment/subscription/status";
const CANCEL_URL = "/api/payment/subscription/cancel";
const CHECKOUT_URL = "/api/payment/create-checkout-session";

const ann: User = { id: "u1", email: "ann@example.com", name: "Ann", phone: "", picture: null };

// ---------------------------------------------------------------- stubs

type Reply = { status: number; body: unknown };
type Handler = (url: string, init?: RequestInit) => Reply | Promise<Reply>;
let handlers: Record<string, Handler>;
const requests: { method: string; url: string; body: unknown; headers: Record<string, string> }[] = [];
let assign: ReturnType<typeof vi.fn<(url: string) => void>>;
let alertSpy: ReturnType<typeof vi.fn<(message?: string) => void>>;
let confirmSpy: ReturnType<typeof vi.fn<(message?: string) => boolean>>;

const ok = (body: unknown): Reply => ({ status: 200, body });
const statusReply = (s: Partial<SubscriptionStatusResponse>): Reply => ok({ status: "none", planId: null, currentPeriodEnd: null, ...s });

beforeEach(() => {
  requests.length = 0;
  handlers = {
    [PLANS_URL]: () => ok({ plans: PLANS }),
    [STATUS_URL]: () => statusReply({}),
  };
  stubJsonFetch(requests, (url, init) => handlers[url]?.(url, init) ?? { status: 404, body: { message: "Not found." } });
  assign = vi.fn<(url: string) => void>();
  vi.spyOn(browserNavigation, "assign").mockImplementation(assign);
  alertSpy = vi.fn<(message?: string) => void>();
  confirmSpy = vi.fn<(message?: string) => boolean>(() => true);
  // happy-dom has no alert/confirm: the stubs are the window's
  vi.stubGlobal("alert", alertSpy);
  vi.stubGlobal("confirm", confirmSpy);
  vi.spyOn(console, "error").mockImplementation(() => {});
  localStorage.setItem("token", "tok-ann");
  userInfo.user = ann;
  userInfo.chatList = [];
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  userInfo.user = null;
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const calls = (url: string) => requests.filter((r) => r.url === url);
const cards = () => screen.queryAllByRole("article");
const cardNamed = (name: string) => screen.getByRole("article", { name });

function renderPage(element: React.ReactElement) {
  return render(<MemoryRouter>{element}</MemoryRouter>);
}

// ---------------------------------------------------------------- date format

describe("formatLongDate", () => {
  it("formats an ISO instant in en-US long form", () => {
    expect(formatLongDate(PERIOD_END)).toBe("December 22, 2026");
    expect(formatLongDate("2027-03-05T12:00:00Z")).toBe("March 5, 2027");
  });

  it("gives null for a missing or invalid date", () => {
    expect(formatLongDate(null)).toBeNull();
    expect(formatLongDate("")).toBeNull();
    expect(formatLongDate("not a date")).toBeNull();
  });
});

// ---------------------------------------------------------------- settings panel

describe("Subscription panel", () => {
  it("shows the loading text until the first status call finishes", async () => {
    const gate = deferred<Reply>();
    handlers[STATUS_URL] = () => gate.promise;
    render(<SubscriptionPanel />);
    expect(screen.getByRole("heading", { name: "Subscription Plans" })).toBeTruthy();
    expect(screen.getByText("Loading subscription info...")).toBeTruthy();
    // the catalogue alone does not end the loading state
    await waitFor(() => expect(calls(PLANS_URL)).toHaveLength(1));
    await act(async () => {});
    expect(screen.getByText("Loading subscription info...")).toBeTruthy();
    expect(cards()).toHaveLength(0);

    await act(async () => gate.resolve(statusReply({ status: "none" })));
    await waitFor(() => expect(screen.queryByText("Loading subscription info...")).toBeNull());
    expect(cards()).toHaveLength(2);
    expect(calls(STATUS_URL)).toHaveLength(1);
    expect(calls(STATUS_URL)[0]).toMatchObject({ method: "POST", body: {} });
    expect(calls(STATUS_URL)[0]!.headers.Authorization).toBe("Bearer tok-ann");
  });

  it("shows the plan cards when the status call fails (only logged)", async () => {
    handlers[STATUS_URL] = () => ({ status: 500, body: { message: "Internal error." } });
    render(<SubscriptionPanel />);
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByText("Loading subscription info...")).toBeNull();
    expect(screen.queryByRole("region", { name: /Subscription/ })).toBeNull();
    expect(alertSpy).not.toHaveBeenCalled();
    expect(console.error).toHaveBeenCalled();
  });

  it("shows the Settings catalogue's cards with name, price, button, features and the check icons", async () => {
    render(<SubscriptionPanel />);
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(cards().map((c) => within(c).getByRole("heading").textContent)).toEqual(["Premium (Monthly)", "Pro (Annual)"]);
    const premium = cardNamed("Premium (Monthly)");
    expect(within(premium).getByText("$29.99 / month")).toBeTruthy();
    expect(within(premium).getByRole("button", { name: "Choose Premium" })).toBeTruthy();
    const items = within(premium).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual(PLANS[0]!.features);
    for (const li of items) {
      const icon = li.querySelector("svg");
      expect(icon?.getAttribute("aria-hidden")).toBe("true");
    }
    expect(within(premium).queryByText("Most popular")).toBeNull();
    const pro = cardNamed("Pro (Annual)");
    expect(within(pro).getByText("$299.99 / year")).toBeTruthy();
    expect(within(pro).getByRole("button", { name: "Choose Pro" })).toBeTruthy();
    expect(screen.queryByText("Monthly Plan")).toBeNull();
  });

  it("shows the Active Subscription box with the plan name and Renews date, and no plan cards", async () => {
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "pro_annual", currentPeriodEnd: PERIOD_END });
    render(<SubscriptionPanel />);
    const box = await screen.findByRole("region", { name: "Active Subscription" });
    await waitFor(() => expect(within(box).getByText("Pro (Annual)")).toBeTruthy());
    expect(within(box).getByText("Renews December 22, 2026")).toBeTruthy();
    expect(within(box).getByRole("button", { name: "Cancel Subscription" })).toBeTruthy();
    expect(cards()).toHaveLength(0);
    expect(screen.queryByRole("button", { name: "Choose Premium" })).toBeNull();
  });

  it("names a plan from the other catalogue too", async () => {
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "yearly", currentPeriodEnd: PERIOD_END });
    render(<SubscriptionPanel />);
    const box = await screen.findByRole("region", { name: "Active Subscription" });
    await waitFor(() => expect(within(box).getByText("Yearly Plan")).toBeTruthy());
  });

  it("does nothing when the cancellation is not confirmed", async () => {
    const user = userEvent.setup();
    confirmSpy.mockReturnValue(false);
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "premium_monthly", currentPeriodEnd: PERIOD_END });
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Cancel Subscription" }));
    expect(confirmSpy).toHaveBeenCalledWith("Are you sure you want to cancel your subscription?");
    expect(calls(CANCEL_URL)).toHaveLength(0);
    expect(alertSpy).not.toHaveBeenCalled();
    expect(screen.getByRole("button", { name: "Cancel Subscription" })).toBeTruthy();
  });

  it("cancels: Cancelling..., the server's message, then the status is reloaded", async () => {
    const user = userEvent.setup();
    let status: SubscriptionStatusResponse["status"] = "active";
    handlers[STATUS_URL] = () => statusReply({ status, planId: "premium_monthly", currentPeriodEnd: PERIOD_END });
    const gate = deferred<Reply>();
    handlers[CANCEL_URL] = () => gate.promise;
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Cancel Subscription" }));

    const busy = await screen.findByRole("button", { name: "Cancelling..." });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect(calls(CANCEL_URL)).toHaveLength(1);
    expect(calls(CANCEL_URL)[0]).toMatchObject({ method: "POST", body: {} });
    expect(alertSpy).not.toHaveBeenCalled();

    status = "cancelling";
    await act(async () => gate.resolve(ok({ message: "Your subscription will end on December 22, 2026." })));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Your subscription will end on December 22, 2026."));
    const box = await screen.findByRole("region", { name: "Subscription Cancelled" });
    expect(within(box).getByText("Access until December 22, 2026")).toBeTruthy();
    expect(calls(STATUS_URL)).toHaveLength(2);
    expect(screen.queryByRole("region", { name: "Active Subscription" })).toBeNull();
    expect(cards()).toHaveLength(2);
  });

  it('alerts "Canceled." when the server sends no message', async () => {
    const user = userEvent.setup();
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "premium_monthly", currentPeriodEnd: PERIOD_END });
    handlers[CANCEL_URL] = () => ok({});
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Cancel Subscription" }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Canceled."));
    await waitFor(() => expect(calls(STATUS_URL)).toHaveLength(2));
    expect(await screen.findByRole("button", { name: "Cancel Subscription" })).toBeTruthy();
  });

  it('alerts "Failed to cancel. Try again." on failure and does not reload the status', async () => {
    const user = userEvent.setup();
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "premium_monthly", currentPeriodEnd: PERIOD_END });
    handlers[CANCEL_URL] = () => ({ status: 500, body: { message: "Stripe is down." } });
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Cancel Subscription" }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Failed to cancel. Try again."));
    expect(alertSpy).toHaveBeenCalledTimes(1);
    const button = await screen.findByRole("button", { name: "Cancel Subscription" });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(calls(STATUS_URL)).toHaveLength(1);
  });

  it("shows the Subscription Cancelled box with Access until and the plan cards", async () => {
    handlers[STATUS_URL] = () => statusReply({ status: "cancelling", planId: "premium_monthly", currentPeriodEnd: PERIOD_END });
    render(<SubscriptionPanel />);
    const box = await screen.findByRole("region", { name: "Subscription Cancelled" });
    expect(within(box).getByText("Access until December 22, 2026")).toBeTruthy();
    expect(within(box).queryByRole("button")).toBeNull();
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByRole("region", { name: "Active Subscription" })).toBeNull();
  });

  it.each(["none", "canceled", "past_due"] as const)("shows only the plan cards for %s", async (status) => {
    handlers[STATUS_URL] = () => statusReply({ status });
    render(<SubscriptionPanel />);
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByRole("region")).toBeNull();
  });

  it("starts checkout with { planId, email } and goes to the returned url", async () => {
    const user = userEvent.setup();
    const gate = deferred<Reply>();
    handlers[CHECKOUT_URL] = () => gate.promise;
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Choose Pro" }));

    expect(calls(CHECKOUT_URL)).toHaveLength(1);
    // a cancelled checkout comes back to this page with Settings open on Subscription
    expect(calls(CHECKOUT_URL)[0]).toMatchObject({
      method: "POST",
      body: { planId: "pro_annual", email: "ann@example.com", returnTo: "/?settings=subscription" },
    });
    expect(calls(CHECKOUT_URL)[0]!.headers.Authorization).toBe("Bearer tok-ann");
    // no second session while the first is being created
    expect((screen.getByRole("button", { name: "Choose Pro" }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole("button", { name: "Choose Premium" }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => gate.resolve(ok({ sessionId: "cs_test_1", url: "https://checkout.stripe.com/c/pay/cs_test_1" })));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://checkout.stripe.com/c/pay/cs_test_1"));
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it("follows the local test checkout path", async () => {
    const user = userEvent.setup();
    handlers[CHECKOUT_URL] = () => ok({ sessionId: "dev_1", url: "/dev/checkout?session_id=dev_1" });
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Choose Premium" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("/dev/checkout?session_id=dev_1"));
    expect(calls(CHECKOUT_URL)[0]!.body).toEqual({
      planId: "premium_monthly",
      email: "ann@example.com",
      returnTo: "/?settings=subscription",
    });
  });

  it.each([
    ["a server error", (): Reply => ({ status: 400, body: { message: "Unknown plan." } })],
    ["no url", (): Reply => ok({ sessionId: "cs_1" })],
    ["a non-http url", (): Reply => ok({ sessionId: "cs_1", url: "javascript:alert(1)" })],
  ])('alerts "Something went wrong. Please try again." on %s', async (_label, reply) => {
    const user = userEvent.setup();
    handlers[CHECKOUT_URL] = reply;
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Choose Premium" }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Something went wrong. Please try again."));
    expect(assign).not.toHaveBeenCalled();
    // the buttons work again
    await waitFor(() => expect((screen.getByRole("button", { name: "Choose Premium" }) as HTMLButtonElement).disabled).toBe(false));
  });

  it("alerts the checkout failure when the network fails", async () => {
    const user = userEvent.setup();
    handlers[CHECKOUT_URL] = () => Promise.reject(new TypeError("Failed to fetch"));
    render(<SubscriptionPanel />);
    await user.click(await screen.findByRole("button", { name: "Choose Pro" }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Something went wrong. Please try again."));
    expect(assign).not.toHaveBeenCalled();
  });
});

// ---------------------------------------------------------------- plan card

describe("Plan card", () => {
  it("has the Most popular mark and the note when the plan has them", () => {
    render(<PlanCard plan={PLANS[3]!} />);
    const card = screen.getByRole("article", { name: "Yearly Plan" });
    expect(within(card).getByText("Most popular")).toBeTruthy();
    expect(within(card).getByText("Save $16 compared to monthly")).toBeTruthy();
    expect(within(card).getByText("$20 / year")).toBeTruthy();
    expect(card.className).toContain("plan-card");
  });

  it("has no button action without onSelect", async () => {
    const user = userEvent.setup();
    render(<PlanCard plan={PLANS[0]!} />);
    const button = screen.getByRole("button", { name: "Choose Premium" });
    expect((button as HTMLButtonElement).disabled).toBe(false);
    await user.click(button);
    expect(requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- pricing page

describe("Pricing page", () => {
  it("shows Choose Your Plan with the two Settings plans, whose buttons do nothing", async () => {
    const user = userEvent.setup();
    renderPage(<Pricing />);
    expect(screen.getByRole("heading", { level: 1, name: "Choose Your Plan" })).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(2));
    const grid = cards()[0]!.parentElement!;
    expect(grid.className).toContain("plan-grid");
    expect(screen.getByRole("heading", { level: 2, name: "Premium (Monthly)" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Pro (Annual)" })).toBeTruthy();
    expect(screen.getByText("$29.99 / month")).toBeTruthy();
    expect(screen.getByText("$299.99 / year")).toBeTruthy();
    expect(screen.getByText("Dedicated account manager")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Choose Premium" }));
    await user.click(screen.getByRole("button", { name: "Choose Pro" }));
    expect(requests.map((r) => r.url)).toEqual([PLANS_URL]);
    expect(assign).not.toHaveBeenCalled();
    expect(alertSpy).not.toHaveBeenCalled();
  });

  it("says so when the catalogue cannot be loaded", async () => {
    handlers[PLANS_URL] = () => ({ status: 500, body: {} });
    renderPage(<Pricing />);
    expect(await screen.findByText("The plans could not be loaded. Please try again later.")).toBeTruthy();
    expect(cards()).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- upgrade page

describe("Upgrade plan page", () => {
  it("shows the Monthly and Yearly plans with the note and the popular mark", async () => {
    renderPage(<Payment />);
    expect(screen.getByRole("heading", { level: 1, name: "Upgrade your plan" })).toBeTruthy();
    await waitFor(() => expect(cards()).toHaveLength(2));
    const monthly = cardNamed("Monthly Plan");
    const yearly = cardNamed("Yearly Plan");
    expect(within(monthly).getByText("$3 / month")).toBeTruthy();
    expect(within(monthly).queryByText("Most popular")).toBeNull();
    expect(within(monthly).queryByText("Save $16 compared to monthly")).toBeNull();
    expect(within(yearly).getByText("$20 / year")).toBeTruthy();
    expect(within(yearly).getByText("Save $16 compared to monthly")).toBeTruthy();
    expect(within(yearly).getByText("Most popular")).toBeTruthy();
    expect(screen.queryByText("Premium (Monthly)")).toBeNull();
    expect(screen.queryByRole("link", { name: "Log in" })).toBeNull();
  });

  it("starts checkout for the chosen plan", async () => {
    const user = userEvent.setup();
    handlers[CHECKOUT_URL] = () => ok({ sessionId: "cs_2", url: "https://checkout.stripe.com/c/pay/cs_2" });
    renderPage(<Payment />);
    await user.click(await screen.findByRole("button", { name: "Subscribe Yearly" }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith("https://checkout.stripe.com/c/pay/cs_2"));
    expect(calls(CHECKOUT_URL)[0]!.body).toEqual({ planId: "yearly", email: "ann@example.com" });
  });

  it("alerts the checkout failure", async () => {
    const user = userEvent.setup();
    handlers[CHECKOUT_URL] = () => ({ status: 409, body: { message: "You already have an active subscription." } });
    renderPage(<Payment />);
    await user.click(await screen.findByRole("button", { name: "Subscribe Monthly" }));
    await waitFor(() => expect(alertSpy).toHaveBeenCalledWith("Something went wrong. Please try again."));
    expect(assign).not.toHaveBeenCalled();
  });

  it("tells a subscriber they have a plan, with Settings to manage it, and disables the buttons", async () => {
    const user = userEvent.setup();
    handlers[STATUS_URL] = () => statusReply({ status: "active", planId: "monthly", currentPeriodEnd: "2030-01-15T00:00:00.000Z" });
    renderPage(<Payment />);
    const note = await screen.findByText(/You already have an active subscription\./);
    expect(note.id).toBe("payment-subscribed-note");
    await waitFor(() => expect(cards()).toHaveLength(2));
    for (const name of ["Subscribe Monthly", "Subscribe Yearly"]) {
      const button = screen.getByRole("button", { name }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.getAttribute("aria-describedby")).toBe("payment-subscribed-note");
    }
    await user.click(screen.getByRole("button", { name: "Manage it in Settings" }));
    expect(appInfo.isOpenSettingsModal).toBe(true);
    expect(appInfo.currentTab).toBe("subscription");
    expect(calls(CHECKOUT_URL)).toHaveLength(0);
    closeSettings();
  });

  it("offers a log-in link to signed-out users and disables the buttons", async () => {
    const user = userEvent.setup();
    userInfo.user = null;
    localStorage.removeItem("token");
    renderPage(<Payment />);
    const link = screen.getByRole("link", { name: "Log in" });
    expect(link.getAttribute("href")).toBe("/app/auth/login");
    await waitFor(() => expect(cards()).toHaveLength(2));
    for (const name of ["Subscribe Monthly", "Subscribe Yearly"]) {
      const button = screen.getByRole("button", { name }) as HTMLButtonElement;
      expect(button.disabled).toBe(true);
      expect(button.getAttribute("aria-describedby")).toBe("payment-login-note");
      await user.click(button);
    }
    expect(document.getElementById("payment-login-note")?.textContent).toBe("Log in to subscribe to a plan.");
    expect(calls(CHECKOUT_URL)).toHaveLength(0);
  });
});
