import { Options } from "../../features/markets/Options";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Options />
    </RequireSession>
  );
}
