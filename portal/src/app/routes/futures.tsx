import { Futures } from "../../features/markets/Futures";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Futures />
    </RequireSession>
  );
}
