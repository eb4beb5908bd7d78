import { useQuery } from "@tanstack/react-query";

import { wholeUnits } from "../lib/amount";
import { reputationUnitQueryOptions } from "../lib/chain";
import { useDeployment } from "../lib/deployment";
import { formatAmount } from "../lib/format";
import { useWallet } from "../lib/wallet";

/**
 * A provider's redemption statistics, saying what they count: only redemptions of at least the
 * manager's reputation unit (10 sSTB by default) move the figures (and the reputation), so
 * smaller confirmed redemptions beside "0 of 0" are not a contradiction.
 */
export function RedemptionStats(props: { successful: number; total: number; averageMinutes: number }) {
  const wallet = useWallet();
  const deployment = useDeployment();
  const unit = useQuery(reputationUnitQueryOptions(wallet, deployment));
  const counted =
    unit.data === undefined
      ? "redemptions large enough to count"
      : `redemptions of at least ${formatAmount(wholeUnits(unit.data), "sSTB")}`;
  return (
    <>
      {props.successful.toLocaleString()} successful of {props.total.toLocaleString()}, average response{" "}
      {props.averageMinutes.toLocaleString()} min{" "}
      <span className="muted">(counted for reputation: {counted}; smaller ones are not counted)</span>
    </>
  );
}
