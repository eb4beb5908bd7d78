import { useState } from "react";
import type { FormEvent } from "react";

import { CopyButton } from "../../components/Copy";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { useSingleFlight } from "../../lib/mutations";
import { useCreateKey, useKeys, useRevokeKey } from "./api";
import type { CreatedKey, Scope } from "./api";
import { Table } from "../../components/Table";

/** The developer's API keys: create (shown once, with a copy button), list with their use, revoke. */
export function ApiKeys() {
  return (
    <>
      <h1>API keys</h1>
      <p>
        Keys act for your address on the HTTP API and GraphQL (<code>Authorization: Bearer &lt;key&gt;</code>). Keys
        made here are on the standard tier (100 requests a minute).
      </p>
      <CreateKey />
      <KeyList />
    </>
  );
}

function CreateKey() {
  const create = useCreateKey();
  const submitOnce = useSingleFlight(create);
  const [label, setLabel] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [created, setCreated] = useState<CreatedKey>();
  const toggle = (scope: Scope) =>
    setScopes((s) => (s.includes(scope) ? s.filter((x) => x !== scope) : [...s, scope].sort()));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    submitOnce({ label, scopes }, { onSuccess: (key) => setCreated(key) });
  };
  return (
    <section className="card" aria-labelledby="create-key-title">
      <h2 id="create-key-title">Create a key</h2>
      <form onSubmit={submit}>
        <label>
          Label
          <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} placeholder="ci, laptop…" />
        </label>
        <fieldset>
          <legend>Scopes</legend>
          {(["read", "write"] as const).map((scope) => (
            <label key={scope} className="inline">
              <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} /> {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="primary" disabled={create.isPending || scopes.length === 0}>
          {create.isPending ? "Creating…" : "Create key"}
        </button>
      </form>
      {create.isError ? <ErrorState error={create.error} /> : null}
      {created === undefined ? null : (
        <div className="secret" role="region" aria-label="New API key">
          <p>
            <strong>Your new key, shown this once.</strong> Copy it now: the gateway keeps no copy it could show again.
          </p>
          <code data-testid="new-key-token" className="token">
            {created.token}
          </code>
          <CopyButton text={created.token} label="Copy key" />
          <button type="button" onClick={() => setCreated(undefined)}>
            Done
          </button>
        </div>
      )}
    </section>
  );
}

function KeyList() {
  const keys = useKeys();
  const revoke = useRevokeKey();
  const revokeOnce = useSingleFlight(revoke);
  if (keys.isPending) return <Loading what="your keys" />;
  if (keys.isError) return <ErrorState error={keys.error} retry={() => void keys.refetch()} />;
  if (keys.data.length === 0) return <Empty>No API keys yet.</Empty>;
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">Your keys</h2>
      <Table>
        <thead>
          <tr>
            <th scope="col">Label</th>
            <th scope="col">Tier</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Requests (24 h)</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.data.map((k) => (
            <tr key={k.key_id} data-testid={`key-${k.key_id}`}>
              <td>{k.label === "" ? <span className="muted">(no label)</span> : k.label}</td>
              <td>
                {k.tier} ({k.rate_limit}/min)
              </td>
              <td>{k.scopes.join(", ")}</td>
              <td>
                <Time unix={k.created_at} />
              </td>
              <td>{k.last_used_at === null ? <span className="muted">never</span> : <Time unix={k.last_used_at} />}</td>
              <td>{k.requests_24h.toLocaleString()}</td>
              <td>
                <Badge value={k.revoked_at !== null ? "revoked" : "active"} />
              </td>
              <td>
                {k.revoked_at === null ? (
                  <button
                    type="button"
                    className="danger"
                    disabled={revoke.isPending}
                    aria-label={`Revoke key ${k.label || k.key_id}`}
                    onClick={() => revokeOnce(k.key_id)}
                  >
                    Revoke
                  </button>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {revoke.isError ? <ErrorState error={revoke.error} /> : null}
    </section>
  );
}
