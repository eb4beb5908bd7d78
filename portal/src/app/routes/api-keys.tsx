import { ApiKeys } from "../../features/api-keys/ApiKeys";
import { RequireSession } from "../Layout";

export function Component() {
  return (
    <RequireSession>
      <ApiKeys />
    </RequireSession>
  );
}
