// Where the drive authorization returns (spec sections 2 and 4). With ?error=
// the "Connect to Google Drive Error" page; otherwise the connection is checked
// (a loading line meanwhile) and a connected state goes to My Files. Not
// connected (yet): a short message and a link back to My Files, where the
// status keeps being re-checked every 10 s for a while.
import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { useSnapshot } from "valtio";
import "../components/drive/drive.css";
import { awaitConnection, bindDriveOwner, checkConnection, connectionFailed, DRIVE_MESSAGES, driveState } from "../state/drive";
import { userInfo } from "../state/user";

export default function GdriveConnected() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { user } = useSnapshot(userInfo);
  const { available } = useSnapshot(driveState);
  const email = user?.email ?? null;
  const error = params.get("error");
  const [checking, setChecking] = useState(!error);

  useEffect(() => {
    if (email) bindDriveOwner(email);
    if (error) {
      connectionFailed();
      return;
    }
    if (!email) {
      setChecking(false);
      return;
    }
    let cancelled = false;
    setChecking(true);
    awaitConnection();
    void checkConnection().then((connected) => {
      if (cancelled) return;
      if (connected === true) navigate("/app/files", { replace: true });
      else setChecking(false);
    });
    return () => {
      cancelled = true;
    };
  }, [error, email, navigate]);

  if (error) {
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

  if (checking) {
    return (
      <main className="page">
        <p className="loading drive-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Checking your Google Drive connection...
        </p>
      </main>
    );
  }

  return (
    <main className="page">
      <h1>Google Drive</h1>
      <p>
        {!email
          ? "Log in to connect your Google Drive."
          : available
            ? "Your Google Drive is not connected yet. My Files keeps checking for a little while."
            : DRIVE_MESSAGES.unavailable}
      </p>
      {email ? <Link to="/app/files">Back to My Files</Link> : <Link to="/app/auth/login">Log in</Link>}
    </main>
  );
}
