import { useParams } from "react-router";

import { RedemptionPage } from "../../features/holders/RedemptionPage";
import { RequireSession } from "../Layout";

export function Component() {
  const { redemptionId } = useParams();
  return (
    <RequireSession>
      <RedemptionPage id={Number(redemptionId)} />
    </RequireSession>
  );
}
