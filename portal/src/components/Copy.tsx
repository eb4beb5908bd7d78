import { useState } from "react";

/**
 * A button that copies `text` and says so (or says to copy by hand when the browser refuses). Its
 * accessible name starts with the words it shows (WCAG 2.5.3, axe's label-content-name-mismatch),
 * with what it copies added for screen readers only.
 */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const shown = state === "copied" ? "Copied" : state === "failed" ? "Select and copy" : label;
  return (
    <button
      type="button"
      className="copy"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
    >
      {shown}
      <span className="sr-only">{text.length > 24 ? " to the clipboard" : ` ${text}`}</span>
    </button>
  );
}
