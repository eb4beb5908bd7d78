import { Link } from "react-router";

import { RequireSession } from "../Layout";

/** `/portal/`: sign in, then the three sections. */
export function Component() {
  return (
    <RequireSession>
      <h1>Compute portal</h1>
      <ul className="sections">
        <li className="card">
          <h2>
            <Link to="/holders">Holders</Link>
          </h2>
          <p>Your sSTB on each chain, redeem with a provider, open access details, confirm or dispute.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/markets">Markets</Link>
          </h2>
          <p>Buy sSTB on the spot market, list yours for sale, withdraw what a market holds for you.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/providers">Providers</Link>
          </h2>
          <p>Your standing, collateral and capacity; incoming redemptions and their deadlines; fulfil.</p>
        </li>
        <li className="card">
          <h2>
            <Link to="/developers/keys">Developers</Link>
          </h2>
          <p>
            API keys and <Link to="/developers/webhooks">webhook subscriptions</Link> with their delivery log.
          </p>
        </li>
      </ul>
    </RequireSession>
  );
}
