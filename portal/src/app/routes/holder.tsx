import { Holder } from "../../features/holders/Holder";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Holder />
    </RequireSession>
  );
}
