import { Markets } from "../../features/markets/Markets";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Markets />
    </RequireSession>
  );
}
