import { checksummed } from "../lib/format";
import { CopyButton } from "./Copy";

/** An address, checksummed, with a copy button. */
export function Address({ value, label }: { value: string; label?: string }) {
  const address = checksummed(value);
  return (
    <span className="address">
      <code title={address} aria-label={label === undefined ? address : `${label} ${address}`}>
        {address}
      </code>
      <CopyButton text={address} label="Copy address" />
    </span>
  );
}
