import { useState } from "react";
import type { FormEvent } from "react";
import { Link } from "react-router";

import { Address } from "../../components/Address";
import { Amount } from "../../components/Amount";
import { Badge, Empty, ErrorState, Loading } from "../../components/States";
import { plural } from "../../lib/format";
import { useProviders } from "./api";
import type { ProviderFilters } from "./api";

/** Providers with the spec's filters (status, minimum reputation, location), paged. */
export function Providers() {
  const [filters, setFilters] = useState<ProviderFilters>({ status: "active", page: 1 });
  const [draft, setDraft] = useState({ status: "active", min_reputation: "", location: "" });
  const providers = useProviders(filters);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      page: 1,
      ...(draft.status === "" ? {} : { status: draft.status as ProviderFilters["status"] }),
      ...(draft.min_reputation === "" ? {} : { min_reputation: Number(draft.min_reputation) }),
      ...(draft.location.trim() === "" ? {} : { location: draft.location.trim() }),
    });
  };
  return (
    <>
      <h1>Providers</h1>
      <form className="card filters" onSubmit={apply} aria-label="Filter providers">
        <label>
          Status
          <select value={draft.status} onChange={(e) => setDraft({ ...draft, status: e.target.value })}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="pending">pending</option>
            <option value="suspended">suspended</option>
          </select>
        </label>
        <label>
          Minimum reputation (0–100)
          <input
            type="number"
            min={0}
            max={100}
            step="0.01"
            value={draft.min_reputation}
            onChange={(e) => setDraft({ ...draft, min_reputation: e.target.value })}
          />
        </label>
        <label>
          Location (country or region)
          <input value={draft.location} onChange={(e) => setDraft({ ...draft, location: e.target.value })} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      {providers.isPending ? (
        <Loading what="providers" />
      ) : providers.isError ? (
        <ErrorState error={providers.error} retry={() => void providers.refetch()} />
      ) : providers.data.providers.length === 0 ? (
        <Empty>No provider matches these filters.</Empty>
      ) : (
        <section className="card" aria-label="Providers found">
          <p className="muted">{plural(providers.data.total, "provider")}</p>
          <ul className="rows">
            {providers.data.providers.map((p) => (
              <li key={p.provider_id}>
                <Link to={`/holders/providers/${p.provider_id}`}>{p.name}</Link> <Badge value={p.status} />
                <span>
                  reputation {p.reputation_score.toFixed(2)} / 100 · {p.location.country}/{p.location.region} ·
                  available <Amount value={p.available_cu_value} unit="sSTB" decimals={18} />
                </span>
                <Address value={p.provider_id} />
              </li>
            ))}
          </ul>
          <nav className="pager" aria-label="Pages">
            <button
              type="button"
              disabled={filters.page <= 1}
              onClick={() => setFilters({ ...filters, page: filters.page - 1 })}
            >
              Previous
            </button>
            <span>Page {filters.page}</span>
            <button
              type="button"
              disabled={filters.page * 20 >= providers.data.total}
              onClick={() => setFilters({ ...filters, page: filters.page + 1 })}
            >
              Next
            </button>
          </nav>
        </section>
      )}
    </>
  );
}
