import { useEffect, useRef } from "react";
import type { ReactNode } from "react";

/**
 * A data table that fits a phone: on a narrow screen (styles.css, `table.stack`) each row becomes a
 * block of "header: value" lines instead of a table wider than the page. Every body cell is
 * labelled with its column's header (`data-label`, kept current as rows come and go).
 */
export function Table({ children, caption }: { children: ReactNode; caption?: string }) {
  const ref = useRef<HTMLTableElement>(null);
  useEffect(() => {
    const table = ref.current;
    if (table === null) return;
    const label = () => {
      const heads = Array.from(table.tHead?.rows[0]?.cells ?? [], (c) => c.textContent?.trim() ?? "");
      for (const body of Array.from(table.tBodies)) {
        for (const row of Array.from(body.rows)) {
          Array.from(row.cells).forEach((cell, i) => {
            const head = heads[i] ?? "";
            if (head !== "" && cell.getAttribute("data-label") !== head) cell.setAttribute("data-label", head);
          });
        }
      }
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(table, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div className="table-wrap">
      <table ref={ref} className="stack">
        {caption === undefined ? null : <caption className="sr-only">{caption}</caption>}
        {children}
      </table>
    </div>
  );
}
