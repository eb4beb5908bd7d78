import { Console } from "../../features/providers/Console";
import { useSession } from "../../lib/session";
import { RequireSession } from "../Layout";

function SignedInConsole() {
  const session = useSession();
  return <Console address={session.data!.address} />;
}

export function Component() {
  return (
    <RequireSession>
      <SignedInConsole />
    </RequireSession>
  );
}
