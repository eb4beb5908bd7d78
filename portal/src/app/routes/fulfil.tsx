import { useParams } from "react-router";

import { Fulfil } from "../../features/providers/Fulfil";
import { RequireSession } from "../Layout";

export function Component() {
  const { redemptionId } = useParams();
  return (
    <RequireSession>
      <Fulfil id={Number(redemptionId)} />
    </RequireSession>
  );
}
