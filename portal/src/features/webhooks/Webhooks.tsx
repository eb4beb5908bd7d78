import { useState } from "react";
import type { FormEvent } from "react";
import { Link } from "react-router";

import { WEBHOOK_EVENT_GROUPS } from "@compute-capacity/sdk";

import { CopyButton } from "../../components/Copy";
import { Empty, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { useSingleFlight } from "../../lib/mutations";
import { useCreateSubscription, useSubscriptions } from "./api";
import type { CreateInput, CreatedSubscription } from "./api";

type EventName = CreateInput["events"][number];

/** Webhook subscriptions: add a URL with its events (grouped by the spec's lists) and timestamp form; the list. */
export function Webhooks() {
  return (
    <>
      <h1>Webhooks</h1>
      <p>
        The gateway POSTs each event you subscribe to as signed JSON (<code>X-SERVICE-Signature</code>: HMAC-SHA256 of
        the body with the subscription's secret), retrying until your receiver answers 2xx.
      </p>
      <CreateSubscription />
      <SubscriptionList />
    </>
  );
}

function CreateSubscription() {
  const create = useCreateSubscription();
  const submitOnce = useSingleFlight(create);
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<EventName[]>([]);
  const [format, setFormat] = useState<"unix" | "iso8601">("unix");
  const [own, setOwn] = useState(false);
  const [created, setCreated] = useState<CreatedSubscription>();
  const toggle = (event: EventName) =>
    setEvents((list) => (list.includes(event) ? list.filter((e) => e !== event) : [...list, event]));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    submitOnce(
      { url, events, timestamp_format: format, own_events_only: own },
      { onSuccess: (subscription) => setCreated(subscription) },
    );
  };
  return (
    <section className="card" aria-labelledby="add-webhook-title">
      <h2 id="add-webhook-title">Add a receiver</h2>
      <form onSubmit={submit}>
        <label>
          Receiver URL
          <input
            type="url"
            required
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://hooks.example.com/compute"
          />
        </label>
        {WEBHOOK_EVENT_GROUPS.map((group) => (
          <fieldset key={group.name} className="events">
            <legend>{group.name}</legend>
            {group.events.map((event) => (
              <label key={event} className="inline">
                <input type="checkbox" checked={events.includes(event)} onChange={() => toggle(event)} />{" "}
                <code>{event}</code>
              </label>
            ))}
          </fieldset>
        ))}
        <fieldset>
          <legend>Timestamp form</legend>
          <label className="inline">
            <input type="radio" name="timestamp" checked={format === "unix"} onChange={() => setFormat("unix")} /> Unix
            seconds (reference form)
          </label>
          <label className="inline">
            <input type="radio" name="timestamp" checked={format === "iso8601"} onChange={() => setFormat("iso8601")} />{" "}
            ISO 8601 UTC (integration-guide form)
          </label>
        </fieldset>
        <label className="inline">
          <input type="checkbox" checked={own} onChange={(e) => setOwn(e.target.checked)} /> Only events that involve my
          address
        </label>
        <button type="submit" className="primary" disabled={create.isPending || events.length === 0}>
          {create.isPending ? "Adding…" : "Add receiver"}
        </button>
      </form>
      {create.isError ? <ErrorState error={create.error} /> : null}
      {created === undefined ? null : (
        <div className="secret" role="region" aria-label="New signing secret">
          <p>
            <strong>The signing secret, shown this once.</strong> Your receiver checks each delivery's signature with
            it.
          </p>
          <code className="token" data-testid="webhook-secret">
            {created.secret}
          </code>
          <CopyButton text={created.secret} label="Copy secret" />
          <Link to={`/developers/webhooks/${created.subscription_id}`}>Open the subscription</Link>
        </div>
      )}
    </section>
  );
}

function SubscriptionList() {
  const list = useSubscriptions();
  if (list.isPending) return <Loading what="your subscriptions" />;
  if (list.isError) return <ErrorState error={list.error} retry={() => void list.refetch()} />;
  if (list.data.webhooks.length === 0) return <Empty>No subscriptions yet.</Empty>;
  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Your subscriptions</h2>
      <ul className="rows">
        {list.data.webhooks.map((w) => (
          <li key={w.subscription_id}>
            <Link to={`/developers/webhooks/${w.subscription_id}`}>{w.url}</Link>
            <span className="muted">
              {w.events.length} events · {w.timestamp_format} · added <Time unix={w.created_at} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
