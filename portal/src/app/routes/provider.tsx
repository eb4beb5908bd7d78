import { useParams } from "react-router";

import { ProviderPage } from "../../features/holders/ProviderPage";
import { RequireSession } from "../Layout";

export function Component() {
  const { providerId } = useParams();
  return (
    <RequireSession>
      <ProviderPage id={providerId!} />
    </RequireSession>
  );
}
