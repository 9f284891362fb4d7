// My Files (spec sections 2, 4, 8 and 9): the signed-in user's documents; a
// visitor is asked to log in.
import { Link } from "react-router-dom";
import { useSnapshot } from "valtio";
import "../components/files/files.css";
import { MyFiles } from "../components/files/MyFiles";
import { userInfo } from "../state/user";

export default function Files() {
  const { user } = useSnapshot(userInfo);
  const signedIn = Boolean(user);

  return (
    <main className="page files-page">
      <h1>My Files</h1>
      {signedIn ? (
        <MyFiles />
      ) : (
        <p>
          <Link to="/app/auth/login">Log in</Link> to upload and manage your documents.
        </p>
      )}
    </main>
  );
}
