// The chat page with the connection the layout normally holds, inside a router as in the app
// (client tests render it over a FakeWebSocket; kept beside them: test/helpers is also type-checked without the DOM).
import { MemoryRouter } from "react-router-dom";
import Chat from "../../client/pages/Chat";
import { useChatConnection } from "../../client/state/chatConnection";

function ChatWithConnection() {
  useChatConnection();
  return <Chat />;
}

export function ConnectedChat() {
  return (
    <MemoryRouter initialEntries={["/app/chat"]}>
      <ChatWithConnection />
    </MemoryRouter>
  );
}
