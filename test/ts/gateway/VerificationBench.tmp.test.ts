import { ROLE, registerProvider, startLiveDeployment, startTestGateway } from "../../helpers/gateway.js";
import { HttpClient } from "../../helpers/http.js";
import { mintVerified, signedReport } from "../../helpers/verification.js";
import { sampleProfile } from "../../../scripts/lib/samples.js";

const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

describe("verification figures", function () {
  this.timeout(600_000);
  it("measures", async function () {
    const live = await startLiveDeployment("vbench", { satellite: false });
    const P = live.signers[ROLE.providerA];
    await registerProvider(live, P, sampleProfile("Bench"), 0);
    const gw = await startTestGateway(live, { verifierKeys: live.verifierKeys.map((w) => w.privateKey) });
    const http = new HttpClient(gw.url, (await gw.keys.create({ tier: "enterprise", account: P.address, scopes: ["read", "write"] })).token);
    const reports = [];
    for (let i = 0; i < 40; i++) reports.push(await signedReport(live, P, { hardware: { cpuCores: 1, ramGb: 4, storageGb: 64, networkMbps: 156 }, ratioBps: 9000 + i * 10 }));
    const times: number[] = [];
    let last: any;
    for (const r of reports) {
      const t = performance.now();
      const res = await http.request("POST", "/api/v1/verification/submit", { body: JSON.stringify(r), headers: { "content-type": "application/json" } });
      times.push(performance.now() - t);
      last = (res.body as any).data;
      if (last.status !== "verified") throw new Error(res.text);
    }
    const gets: number[] = [];
    for (let i = 0; i < 40; i++) {
      const t = performance.now();
      await http.get(`/api/v1/verification/${last.verification_id}`);
      gets.push(performance.now() - t);
    }
    const receipt = await mintVerified(live, P, last);
    console.log(`DB ${process.env.DATABASE_URL ? "postgres" : "pglite"}: submit median ${q(times, 0.5).toFixed(1)} ms p95 ${q(times, 0.95).toFixed(1)} ms max ${Math.max(...times).toFixed(1)}; GET (unminted) median ${q(gets, 0.5).toFixed(1)} ms p95 ${q(gets, 0.95).toFixed(1)}; mint gas with the gateway's 2-of-3 proof ${receipt!.gasUsed}; proof ${(last.proof.length - 2) / 2} bytes`);
    await gw.close();
    await live.stop();
  });
});
