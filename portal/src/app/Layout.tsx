import type { ReactNode } from "react";
import { NavLink, Outlet, useRouteError } from "react-router";

import { Address } from "../components/Address";
import { ErrorState, Loading } from "../components/States";
import { SignIn } from "../features/auth/SignIn";
import { useSignOut } from "../features/auth/api";
import { useDeployment } from "../lib/deployment";
import { useSession } from "../lib/session";
import { useWallet } from "../lib/wallet";
import { useSingleFlight } from "../lib/mutations";

/** The frame of every page: the header with the sections and the session, then the page. */
export function Layout() {
  const deployment = useDeployment();
  const session = useSession();
  const signOut = useSignOut();
  const signOutOnce = useSingleFlight(signOut);
  const wallet = useWallet();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Compute portal</span>
        <nav aria-label="Sections">
          <NavLink to="/holders">Holders</NavLink>
          <NavLink to="/markets">Markets</NavLink>
          <NavLink to="/bridge">Bridge</NavLink>
          <NavLink to="/providers">Providers</NavLink>
          <NavLink to="/developers/keys">API keys</NavLink>
          <NavLink to="/developers/webhooks">Webhooks</NavLink>
        </nav>
        <div className="session">
          <span className="chain">{deployment.chain.label}</span>
          {wallet.wallet !== undefined && wallet.account !== undefined ? (
            <span className="wallet-name" title="The connected wallet, as it announced itself">
              <img
                src={wallet.wallet.icon || "data:,"}
                alt=""
                width={16}
                height={16}
                hidden={wallet.wallet.icon === ""}
              />
              {wallet.wallet.name}
            </span>
          ) : null}
          {session.data ? (
            <>
              <Address value={session.data.address} label="Signed in as" />
              <button type="button" onClick={() => signOutOnce(undefined, { onSettled: () => wallet.disconnect() })}>
                Sign out
              </button>
            </>
          ) : null}
        </div>
      </header>
      <main id="main" className="page">
        {wallet.account === undefined && session.data ? (
          <div className="state warning" role="status">
            Connect your wallet to sign transactions:{" "}
            {wallet.wallets.map((w) => (
              <button key={w.uuid} type="button" onClick={() => void wallet.connect(w).catch(() => {})}>
                Connect {w.name}
              </button>
            ))}
          </div>
        ) : null}
        {wallet.account !== undefined && session.data && !wallet.onAppChain ? (
          <p className="state warning" role="status">
            Your wallet is on{" "}
            {deployment.chains.find((c) => c.chain_id === wallet.chainId)?.label ?? `chain ${wallet.chainId}`}, not{" "}
            {deployment.chain.label}: the bridge signs there, the rest of the portal only once you{" "}
            <button type="button" onClick={() => void wallet.switchChain().catch(() => {})}>
              switch to {deployment.chain.label}
            </button>
          </p>
        ) : null}
        {wallet.account !== undefined &&
        session.data &&
        wallet.account.toLowerCase() !== session.data.address.toLowerCase() ? (
          <p className="state warning" role="status">
            Your wallet's account is not the signed-in address: sign out and sign in again to act as it.
          </p>
        ) : null}
        <Outlet />
      </main>
    </>
  );
}

/** Shows `children` to a signed-in visitor, the sign-in otherwise. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.isPending) return <Loading what="your session" />;
  if (session.isError) return <ErrorState error={session.error} retry={() => void session.refetch()} />;
  if (session.data === null) return <SignIn />;
  return <>{children}</>;
}

/** A route that failed to render or load. */
export function RouteError() {
  const error = useRouteError();
  return (
    <main className="page">
      <ErrorState error={error} retry={() => window.location.reload()} />
    </main>
  );
}
