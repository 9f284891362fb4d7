// Subscription: the plans issue fills this panel with the status and plan cards.
export function SubscriptionPanel() {
  return (
    <div className="settings-form">
      <h3>Subscription Plans</h3>
      <p className="muted">Loading subscription info...</p>
    </div>
  );
}
