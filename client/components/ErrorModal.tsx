// The Error modal (spec section 2): Ok clears local storage and goes to login.
import { useSnapshot } from "valtio";
import { forceLogout } from "../lib/api";
import { ui } from "../state/ui";
import { Modal } from "./Modal";

export function ErrorModal() {
  const { errorMessage } = useSnapshot(ui);
  if (!errorMessage) return null;

  function acknowledge() {
    ui.errorMessage = null;
    localStorage.clear();
    forceLogout();
  }

  return (
    <Modal title="Error" onClose={acknowledge} className="error-modal">
      <p>{errorMessage}</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={acknowledge}>
          Ok
        </button>
      </div>
    </Modal>
  );
}
