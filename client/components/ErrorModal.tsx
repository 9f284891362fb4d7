// The Error modal (spec section 2): Ok clears local storage and goes to login.
import { useSnapshot } from "valtio";
import { acknowledgeError, ui } from "../state/ui";
import { Modal } from "./Modal";

export function ErrorModal() {
  const { errorMessage } = useSnapshot(ui);
  if (!errorMessage) return null;

  return (
    <Modal title="Error" onClose={acknowledgeError} className="error-modal">
      <p>{errorMessage}</p>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary" onClick={acknowledgeError}>
          Ok
        </button>
      </div>
    </Modal>
  );
}
