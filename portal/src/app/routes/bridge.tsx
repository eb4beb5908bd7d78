import { Bridge } from "../../features/bridge/Bridge";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Bridge />
    </RequireSession>
  );
}
