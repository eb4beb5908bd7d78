import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { App } from "./app/App";
import { loadDeployment } from "./config/deployment";
import "./styles.css";

const root = createRoot(document.getElementById("root")!);
loadDeployment().then(
  (deployment) =>
    root.render(
      <StrictMode>
        <App deployment={deployment} />
      </StrictMode>,
    ),
  (error: unknown) =>
    root.render(
      <main className="page">
        <div className="state error" role="alert">
          <strong>The portal cannot start</strong>
          <span>{error instanceof Error ? error.message : String(error)}</span>
        </div>
      </main>,
    ),
);
