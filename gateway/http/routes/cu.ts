import type { FastifyInstance, FastifyRequest } from "fastify";

import type { ReadModel } from "../../store/queries.js";
import { invalidParameter, notFound } from "../../api/errors.js";
import * as format from "../../api/format.js";
import * as s from "../../api/schemas.js";
import { list, ok } from "./replies.js";
import type { Paging } from "./replies.js";

const minValue = { ...s.amountFilter, description: "only units worth at least this many whole sSTB" };
const maxValue = { ...s.amountFilter, description: "only units worth at most this many whole sSTB" };

/**
 * A provider's compute units, as both sets name the route (`/compute-resources/provider/{providerId}`
 * here, `/providers/{providerId}/compute-resources` in providers.ts): one schema and one handler.
 */
export function unitsOfProvider(model: ReadModel) {
  const schema = {
    tags: ["compute units"],
    description: "A provider's verified compute units, oldest first, filtered by value; 404 for an unknown provider.",
    params: s.params({ providerId: { ...s.addressParam, description: "the provider's chain address" } }),
    querystring: s.query({ min_value: minValue, max_value: maxValue, ...s.paging }),
    response: {
      200: s.listEnvelope("compute_resources", s.ComputeUnit, "A page of the provider's compute resources"),
      ...s.errors,
    },
  };
  const handler = async (request: FastifyRequest) => {
    const { providerId } = request.params as { providerId: string };
    const q = request.query as { min_value?: number; max_value?: number } & Paging;
    if ((await model.provider(providerId)) === undefined) throw notFound("provider", providerId);
    const { rows, total } = await model.listComputeUnits(
      { providerId, minValue: q.min_value, maxValue: q.max_value },
      q,
    );
    return list("compute_resources", rows.map(format.computeUnitItem), total, q);
  };
  return { schema, handler };
}

/**
 * Compute units (reference set, `/cu`) and compute resources (short set: the same resource), read
 * from the indexed store. Every route answers the same to every key: cacheable.
 */
export async function computeUnitRoutes(app: FastifyInstance, options: { model: ReadModel }): Promise<void> {
  const { model } = options;
  const config = { cache: true };
  const cuQuery = s.query({
    provider_id: { ...s.addressParam, description: "only this provider's units (its chain address)" },
    min_value: minValue,
    max_value: maxValue,
    ...s.paging,
  });
  const unitsDescription =
    "Verified compute units, oldest first, filtered by provider and value. Each unit's `cu_value` is the " +
    "sSTB its verification minted.";
  const listUnits = (name: string) => async (request: FastifyRequest) => {
    const q = request.query as { provider_id?: string; min_value?: number; max_value?: number } & Paging;
    if (q.min_value !== undefined && q.max_value !== undefined && q.min_value > q.max_value) {
      throw invalidParameter("min_value", "must not exceed max_value");
    }
    const { rows, total } = await model.listComputeUnits(
      { providerId: q.provider_id, minValue: q.min_value, maxValue: q.max_value },
      q,
    );
    return list(name, rows.map(format.computeUnitItem), total, q);
  };
  app.get(
    "/cu/list",
    {
      schema: {
        tags: ["compute units"],
        summary: "List verified compute units",
        description: unitsDescription,
        querystring: cuQuery,
        response: {
          200: s.listEnvelope("compute_units", s.ComputeUnit, "A page of compute units"),
          ...s.errors,
        },
      },
      config,
    },
    listUnits("compute_units"),
  );
  app.get(
    "/compute-resources",
    {
      schema: {
        tags: ["compute units"],
        summary: "List compute resources (the short set's name for compute units)",
        description: `${unitsDescription} The short set's name for \`/cu/list\`; the array is \`compute_resources\`.`,
        querystring: cuQuery,
        response: {
          200: s.listEnvelope("compute_resources", s.ComputeUnit, "A page of compute resources"),
          ...s.errors,
        },
      },
      config,
    },
    listUnits("compute_resources"),
  );
  const unitDetail = (param: string) => async (request: FastifyRequest) => {
    const id = (request.params as Record<string, number>)[param];
    const row = await model.computeUnit(id);
    if (row === undefined) throw notFound("compute unit", id);
    return ok(format.computeUnitDetail(row));
  };
  app.get(
    "/cu/:cu_id",
    {
      schema: {
        tags: ["compute units"],
        summary: "A compute unit (detail form)",
        description: "One verified compute unit with its owner, location and benchmark scores.",
        params: s.params({ cu_id: { ...s.idParam, description: "the compute unit's id" } }),
        response: { 200: s.envelope(s.ComputeUnitDetail, "The compute unit"), ...s.errors },
      },
      config,
    },
    unitDetail("cu_id"),
  );
  app.get(
    "/compute-resources/:resourceId",
    {
      schema: {
        tags: ["compute units"],
        summary: "A compute resource (the compute unit's detail form)",
        description: "The short set's name for `/cu/{cu_id}`: one verified compute unit, detail form.",
        params: s.params({ resourceId: { ...s.idParam, description: "the compute unit's id" } }),
        response: { 200: s.envelope(s.ComputeUnitDetail, "The compute resource"), ...s.errors },
      },
      config,
    },
    unitDetail("resourceId"),
  );
  const units = unitsOfProvider(model);
  app.get(
    "/compute-resources/provider/:providerId",
    { schema: { ...units.schema, summary: "Compute resources of a provider" }, config },
    units.handler,
  );
}
