import { Webhooks } from "../../features/webhooks/Webhooks";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Webhooks />
    </RequireSession>
  );
}
