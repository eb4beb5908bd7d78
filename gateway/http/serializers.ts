import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import type { SerializerFactory } from "@fastify/fast-json-stringify-compiler";

/**
 * Fastify's response serializers (fast-json-stringify, the default), each compiled when its route
 * first answers with that status instead of all at start-up. Every response schema now names its
 * resources by `$ref` and carries examples (decision 0125), and fast-json-stringify validates each
 * one and loads every shared schema into a resolver of its own: compiling the ~700 responses up
 * front blocked the event loop for 3 to 9 s on an idle machine and over 20 s on a loaded one,
 * long enough for the JSON-RPC sockets the gateway had just used to be closed under it (its first
 * `eth_blockNumber` after start-up answered "socket hang up"). Compiled lazily, a route's first
 * answer pays its own compilation (milliseconds); serialization and the fields it drops are
 * unchanged.
 */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined;
    return (data) => (serialize ??= compile(route))(data);
  };
};
