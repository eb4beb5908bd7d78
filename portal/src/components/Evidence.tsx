import { useMemo } from "react";

import { Time } from "./Time";

/** The stored dispute evidence as `GET /redemptions/{id}/dispute` answers it. */
export interface EvidenceData {
  issue_type: string;
  description: string;
  evidence?: unknown;
  evidence_hash: string;
  created_at: number;
}

interface EvidenceFileFacts {
  file_name: string;
  media_type: string;
  size: number;
  sha256: string;
  content_base64: string;
}

function fileOf(evidence: unknown): EvidenceFileFacts | undefined {
  const e = evidence as Partial<EvidenceFileFacts> | null;
  return e !== null && typeof e === "object" && typeof e.content_base64 === "string" && typeof e.file_name === "string"
    ? (e as EvidenceFileFacts)
    : undefined;
}

/** A dispute's evidence: the issue, the description, the file (name, size, SHA-256, a download) and the on-chain hash. */
export function EvidenceView({ evidence }: { evidence: EvidenceData }) {
  const file = fileOf(evidence.evidence);
  const href = useMemo(() => {
    if (file === undefined) return undefined;
    const bytes = Uint8Array.from(atob(file.content_base64), (c) => c.charCodeAt(0));
    return URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  }, [file]);
  return (
    <dl className="facts" data-testid="evidence">
      <dt>Issue</dt>
      <dd>{evidence.issue_type}</dd>
      <dt>Description</dt>
      <dd>{evidence.description}</dd>
      <dt>Evidence file</dt>
      <dd>
        {file === undefined ? (
          <code>{JSON.stringify(evidence.evidence)}</code>
        ) : (
          <>
            <a href={href} download={file.file_name}>
              {file.file_name}
            </a>{" "}
            ({file.size.toLocaleString()} bytes, {file.media_type}), SHA-256{" "}
            <code className="token">{file.sha256}</code>
          </>
        )}
      </dd>
      <dt>Opened</dt>
      <dd>
        <Time unix={evidence.created_at} />
      </dd>
      <dt>Evidence hash (on-chain)</dt>
      <dd>
        <code className="token">{evidence.evidence_hash}</code>
      </dd>
    </dl>
  );
}
