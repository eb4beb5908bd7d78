import { useParams } from "react-router";

import { WebhookDetail } from "../../features/webhooks/WebhookDetail";
import { RequireSession } from "../Layout";

export function Component() {
  const { subscriptionId } = useParams();
  return (
    <RequireSession>
      <WebhookDetail id={subscriptionId!} />
    </RequireSession>
  );
}
