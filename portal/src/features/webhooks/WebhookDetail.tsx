import { useState } from "react";
import { Link, useNavigate } from "react-router";

import { CopyButton } from "../../components/Copy";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { Time } from "../../components/Time";
import { describeError } from "../../lib/errors";
import { useSingleFlight } from "../../lib/mutations";
import {
  useDeleteSubscription,
  useDeliveries,
  useRedeliver,
  useRotateSecret,
  useSendTest,
  useSubscription,
} from "./api";
import { Table } from "../../components/Table";

/** One subscription: its settings, rotate the secret, send a test event, the delivery log, redeliver, delete. */
export function WebhookDetail({ id }: { id: string }) {
  const subscription = useSubscription(id);
  const rotate = useRotateSecret(id);
  const rotateOnce = useSingleFlight(rotate);
  const test = useSendTest(id);
  const testOnce = useSingleFlight(test);
  const remove = useDeleteSubscription();
  const removeOnce = useSingleFlight(remove);
  const navigate = useNavigate();
  const [secret, setSecret] = useState<string>();
  if (subscription.isPending) return <Loading what="the subscription" />;
  if (subscription.isError) return <ErrorState error={subscription.error} retry={() => void subscription.refetch()} />;
  const s = subscription.data;
  const testUnavailable = test.isError && describeError(test.error).message.startsWith("no route");
  return (
    <>
      <p>
        <Link to="/developers/webhooks">← All subscriptions</Link>
      </p>
      <h1>Webhook subscription</h1>
      <section className="card" aria-labelledby="settings-title">
        <h2 id="settings-title">Settings</h2>
        <dl className="facts">
          <dt>Receiver</dt>
          <dd>
            <code>{s.url}</code>
          </dd>
          <dt>Events</dt>
          <dd>{s.events.join(", ")}</dd>
          <dt>Timestamps</dt>
          <dd>{s.timestamp_format === "unix" ? "Unix seconds" : "ISO 8601 UTC"}</dd>
          <dt>Only my events</dt>
          <dd>{s.own_events_only ? "yes" : "no"}</dd>
          <dt>Added</dt>
          <dd>
            <Time unix={s.created_at} />
          </dd>
          <dt>Secret rotated</dt>
          <dd>{s.rotated_at === null ? "never" : <Time unix={s.rotated_at} />}</dd>
        </dl>
        <div className="actions">
          <button
            type="button"
            disabled={rotate.isPending}
            onClick={() => rotateOnce(undefined, { onSuccess: (r) => setSecret(r.secret) })}
          >
            Rotate the secret
          </button>
          <button type="button" disabled={test.isPending} onClick={() => testOnce()}>
            Send a test event
          </button>
          <button
            type="button"
            className="danger"
            disabled={remove.isPending}
            onClick={() => removeOnce(id, { onSuccess: () => void navigate("/developers/webhooks") })}
          >
            Delete
          </button>
        </div>
        {secret === undefined ? null : (
          <div className="secret" role="region" aria-label="New signing secret">
            <p>
              <strong>The new secret, shown this once.</strong> Every later delivery, retries included, is signed with
              it.
            </p>
            <code className="token" data-testid="webhook-secret">
              {secret}
            </code>
            <CopyButton text={secret} label="Copy secret" />
          </div>
        )}
        {rotate.isError ? <ErrorState error={rotate.error} /> : null}
        {testUnavailable ? (
          <p className="state warning" role="status">
            This gateway cannot send test events yet (its <code>POST /webhooks/:id/test</code> route is missing).
          </p>
        ) : test.isError ? (
          <ErrorState error={test.error} />
        ) : test.isSuccess ? (
          <p className="state" role="status">
            Test event queued: it appears in the log below.
          </p>
        ) : null}
        {remove.isError ? <ErrorState error={remove.error} /> : null}
      </section>
      <DeliveryLog id={id} />
    </>
  );
}

function DeliveryLog({ id }: { id: string }) {
  const deliveries = useDeliveries(id);
  const redeliver = useRedeliver(id);
  const redeliverOnce = useSingleFlight(redeliver);
  return (
    <section className="card" aria-labelledby="log-title">
      <h2 id="log-title">Delivery log</h2>
      <button type="button" onClick={() => void deliveries.refetch()} disabled={deliveries.isFetching}>
        Refresh
      </button>
      {deliveries.isPending ? (
        <Loading what="the delivery log" />
      ) : deliveries.isError ? (
        <ErrorState error={deliveries.error} retry={() => void deliveries.refetch()} />
      ) : deliveries.data.deliveries.length === 0 ? (
        <Empty>No deliveries yet: they appear when a subscribed event happens.</Empty>
      ) : (
        <Table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last response</th>
              <th scope="col">Next retry</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.data.deliveries.map((d) => (
              <tr key={d.delivery_id} data-testid="delivery">
                <td>
                  <code>{d.event}</code>
                  <CopyButton text={d.delivery_id} label="Copy delivery id" />
                </td>
                <td>
                  <Badge value={d.status} />
                </td>
                <td>{d.attempts}</td>
                <td data-testid="last-response">
                  {d.last_status_code === null ? (d.last_error ?? "—") : `HTTP ${d.last_status_code}`}
                </td>
                <td>
                  <Time unix={d.next_attempt_at} />
                </td>
                <td>
                  <Time unix={d.created_at} />
                </td>
                <td>
                  {d.status === "cancelled" ? null : (
                    <button
                      type="button"
                      disabled={redeliver.isPending}
                      aria-label={`Redeliver ${d.event} ${d.delivery_id}`}
                      onClick={() => redeliverOnce(d.delivery_id)}
                    >
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {redeliver.isError ? <ErrorState error={redeliver.error} /> : null}
    </section>
  );
}
