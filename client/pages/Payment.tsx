// Upgrade plan. The subscriptions issue adds the plan choice and checkout.
export default function Payment() {
  return (
    <main className="page payment-page">
      <h1>Upgrade your plan</h1>
      <p className="muted">Choose a monthly or yearly subscription.</p>
    </main>
  );
}
