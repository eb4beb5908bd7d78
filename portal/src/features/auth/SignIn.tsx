import { useMutation } from "@tanstack/react-query";

import { ErrorState } from "../../components/States";
import { Address } from "../../components/Address";
import { useDeployment } from "../../lib/deployment";
import { useWallet } from "../../lib/wallet";
import { useSignIn } from "./api";
import { useSingleFlight } from "../../lib/mutations";

/**
 * Sign in: pick a wallet (found by EIP-6963, or `window.ethereum`), connect, switch to the
 * deployment's chain if the wallet is elsewhere, and sign the EIP-4361 message.
 */
export function SignIn() {
  const deployment = useDeployment();
  const wallet = useWallet();
  const signIn = useSignIn(wallet, deployment);
  const signInOnce = useSingleFlight(signIn);
  const switchChain = useMutation({ mutationFn: () => wallet.switchChain() });
  const switchChainOnce = useSingleFlight(switchChain);

  return (
    <section className="card sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in with your wallet</h1>
      <p>
        The portal works on <strong>{deployment.chain.label}</strong> (chain {deployment.chain.chain_id}). Your wallet
        signs a message (no transaction, no fee); the gateway then knows the session is yours.
      </p>
      {wallet.account === undefined ? (
        <WalletChoice />
      ) : (
        <>
          <p>
            Connected as <Address value={wallet.account} /> with {wallet.wallet?.name}.
          </p>
          {!wallet.onAppChain ? (
            <p>
              Your wallet is on chain {wallet.chainId}.{" "}
              <button type="button" onClick={() => switchChainOnce()} disabled={switchChain.isPending}>
                Switch to {deployment.chain.label}
              </button>
            </p>
          ) : (
            <button type="button" className="primary" disabled={signIn.isPending} onClick={() => signInOnce()}>
              {signIn.isPending ? "Waiting for your signature…" : "Sign in"}
            </button>
          )}
          {signIn.isError ? <ErrorState error={signIn.error} /> : null}
          {switchChain.isError ? <ErrorState error={switchChain.error} /> : null}
        </>
      )}
    </section>
  );
}

function WalletChoice() {
  const wallet = useWallet();
  const connect = useMutation({ mutationFn: (w: (typeof wallet.wallets)[number]) => wallet.connect(w) });
  const connectOnce = useSingleFlight(connect);
  if (wallet.wallets.length === 0) {
    return (
      <p className="state empty" role="status">
        No wallet found in this browser. Install a wallet extension (any EIP-6963 wallet), then reload. On the devnet,
        import one of the accounts `npm start` printed.
      </p>
    );
  }
  return (
    <>
      <ul className="wallets" aria-label="Wallets found">
        {wallet.wallets.map((w) => (
          <li key={w.uuid}>
            <button type="button" onClick={() => connectOnce(w)} disabled={connect.isPending}>
              {w.icon === "" ? null : <img src={w.icon} alt="" width={24} height={24} />}
              Connect {w.name}
            </button>
          </li>
        ))}
      </ul>
      {connect.isError ? <ErrorState error={connect.error} /> : null}
    </>
  );
}
