import { Providers } from "../../features/holders/Providers";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <Providers />
    </RequireSession>
  );
}
