import { useNavigate } from "react-router-dom";

export default function SubscriptionSuccess() {
  const navigate = useNavigate();

  return (
    <main className="page">
      <h1>Payment Successful</h1>
      <p>Thank you! Your subscription has been activated.</p>
      <p>You can now access all premium features.</p>
      <button type="button" className="btn btn-primary" onClick={() => navigate("/")}>
        Go to Home
      </button>
    </main>
  );
}
