import { expect } from "chai";

/** A response as the tests see it, kept for the OpenAPI contract test. */
export interface Recorded {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/** Real HTTP against a gateway, recording every response. */
export class HttpClient {
  readonly recorded: Recorded[] = [];
  constructor(
    readonly baseUrl: string,
    public token?: string,
  ) {}

  async request(
    method: string,
    path: string,
    options: { token?: string | null; body?: string | Buffer; headers?: Record<string, string> } = {},
  ): Promise<Recorded> {
    const token = options.token === undefined ? this.token : options.token;
    const headers: Record<string, string> = {
      ...(token === null || token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...options.headers,
    };
    const response = await fetch(this.baseUrl + path, { method, headers, body: options.body });
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const recorded = { method, path, status: response.status, headers: response.headers, body, text };
    this.recorded.push(recorded);
    return recorded;
  }

  get(path: string, options: { token?: string | null; headers?: Record<string, string> } = {}) {
    return this.request("GET", path, options);
  }

  /** GET that must succeed; returns `data`. */
  async data<T = Record<string, any>>(path: string): Promise<T> {
    const r = await this.get(path);
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
    return (r.body as { data: T }).data;
  }

  graphql(query: string, variables: Record<string, unknown> = {}, token?: string | null) {
    return this.request("POST", "/graphql", {
      token,
      body: JSON.stringify({ query, variables }),
      headers: { "content-type": "application/json" },
    });
  }
}

/**
 * The envelope of a failure with the DESIGN.md status of its code, never a stack trace; with
 * `parameter`, also `details.parameter` and a `details.reason`. Returns the error.
 */
export function expectError(r: Recorded, code: string, status: number, parameter?: string) {
  expect(r.status, `${r.method} ${r.path}: ${r.text}`).to.equal(status);
  const body = r.body as {
    success: boolean;
    error: { code: string; message: string; details: Record<string, any> };
  };
  expect(body.success, r.text).to.equal(false);
  expect(body.error.code, r.text).to.equal(code);
  expect(body.error.message).to.be.a("string").and.not.equal("");
  expect(body.error.details).to.be.an("object");
  expect(r.text).to.not.match(/at .*\.(ts|js):\d+/); // never a stack trace
  if (parameter !== undefined) {
    expect(body.error.details.parameter, r.text).to.equal(parameter);
    expect(body.error.details.reason, r.text).to.be.a("string").and.not.equal("");
  }
  return body.error;
}

/** `data` of a successful (200) answer. */
export function dataOf<T = Record<string, any>>(r: Recorded): T {
  expect(r.status, `${r.method} ${r.path}: ${r.text}`).to.equal(200);
  return (r.body as { data: T }).data;
}
