import { SerializerSelector } from "@fastify/fast-json-stringify-compiler";
import { expect } from "chai";

import { lazySerializers } from "../../../gateway/http/serializers.js";

const external = {
  Amount: {
    $id: "Amount",
    type: "object",
    properties: { value: { type: "number" }, value_base_units: { type: "string" } },
    required: ["value", "value_base_units"],
  },
};
const route = (schema: unknown) => ({ method: "GET", url: "/x", httpStatus: "200", schema });
const answer = {
  type: "object",
  properties: { success: { type: "boolean" }, data: { $ref: "Amount#" } },
};

describe("lazySerializers (gateway/http/serializers.ts)", function () {
  it("serializes as Fastify's default fast-json-stringify does: $refs followed, undeclared fields dropped", function () {
    const data = { success: true, data: { value: 1.5, value_base_units: "1500000", secret: "x" }, extra: 1 };
    const lazy = lazySerializers(external, {})(route(answer));
    const eager = SerializerSelector()(external, {})(route(answer));
    expect(lazy(data)).to.equal(eager(data));
    expect(JSON.parse(lazy(data))).to.deep.equal({ success: true, data: { value: 1.5, value_base_units: "1500000" } });
  });

  it("compiles a route's serializer on its first answer, not when the route is registered", function () {
    const broken = { type: "object", properties: { data: { $ref: "Missing#" } } };
    // the default compiler refuses the schema at once (at start-up, in Fastify)
    expect(() => SerializerSelector()(external, {})(route(broken))).to.throw();
    // the lazy one takes it, and refuses only when the route first answers
    const serialize = lazySerializers(external, {})(route(broken));
    expect(() => serialize({ data: {} })).to.throw();
  });
});
