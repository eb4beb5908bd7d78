import postgres from "postgres";
import type { Options, Sql } from "postgres";

/**
 * The read routes' connections to PostgreSQL, as the one `postgres.js` client drizzle takes: each
 * connection is a client of its own (`max: 1`), and each query goes to the next one in turn, where
 * it is pipelined behind the queries already written on that connection.
 *
 * Why not one client with `max: n`: postgres.js (3.4.9, the newest release) keeps its connections
 * in queues whose `shift()` leaves a hole at the front, cleared only when a shift empties the
 * queue. Under steady load two pipelining connections never leave the busy queue empty, so it
 * grows by one hole per query for the life of the process, and every query scans all of them
 * (`move()` looks the connection up with `indexOf`). Measured here, 10 concurrent queries on one
 * client of two connections: 21,400 queries/s at 48 us of CPU each for the first 40,000, 7,100/s
 * at 145 us by the 200,000th, and no recovery while idle; on two clients of one connection,
 * 30,000-48,000/s at 19-38 us throughout (decision 0173). A client of one connection takes it out
 * of the busy queue with a shift that empties the queue every time.
 *
 * Round robin is what the shared client did too: a busy connection taken from the queue's front
 * is put back at its end. A connection that broke is opened again by its client on the next query
 * sent to it.
 */
export function readConnections(url: string, count: number, options: Omit<Options<{}>, "max"> = {}): Sql {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`read connections: ${count} (at least 1)`);
  const clients = Array.from({ length: count }, () => postgres(url, { ...options, max: 1 }));
  return roundRobin(clients);
}

/**
 * The one client over several (exported for its tests): `unsafe` and `begin` go to the next client
 * in turn, `end` ends them all, and the parsers and serializers set on its `options` (drizzle sets
 * them once, on the client it is given) are every client's.
 */
export function roundRobin(clients: readonly Sql[]): Sql {
  let next = 0;
  const take = () => {
    const client = clients[next];
    next = (next + 1) % clients.length;
    return client;
  };
  const shared = { parsers: sharedRecord(clients, "parsers"), serializers: sharedRecord(clients, "serializers") };
  const facade = {
    options: shared,
    unsafe: (...args: Parameters<Sql["unsafe"]>) => take().unsafe(...args),
    begin: (...args: Parameters<Sql["begin"]>) => (take().begin as (...a: unknown[]) => unknown)(...args),
    end: async (options?: { timeout?: number }) => {
      await Promise.all(clients.map((client) => client.end(options)));
    },
  };
  return facade as unknown as Sql;
}

/** A record whose writes go to the same record of every client's options (reads: the first's). */
function sharedRecord(clients: readonly Sql[], key: "parsers" | "serializers"): Record<string, unknown> {
  const records = clients.map((client) => client.options[key] as Record<string, unknown>);
  return new Proxy(records[0], {
    set: (_target, property, value) => {
      for (const record of records) Reflect.set(record, property, value);
      return true;
    },
  });
}
