// Where the drive authorization returns: an error shows here, success goes to My Files.
import { useEffect } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";

export default function GdriveConnected() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const error = params.get("error");

  useEffect(() => {
    if (!error) navigate("/app/files", { replace: true });
  }, [error, navigate]);

  if (!error) return null;
  return (
    <main className="page">
      <h1>Connect to Google Drive Error</h1>
      <p className="form-error" role="alert">
        {error}
      </p>
      <Link to="/app/files">Back to My Files</Link>
    </main>
  );
}
