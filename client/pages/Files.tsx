// My Files. The documents issue adds upload, the table and the drive picker.
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import { userInfo } from "../state/user";

export default function Files() {
  const { user } = useSnapshot(userInfo);
  return (
    <main className="page files-page">
      <h1>My Files</h1>
      {!user && (
        <p>
          <Link to="/app/auth/login">Log in</Link> to upload and manage your documents.
        </p>
      )}
    </main>
  );
}
