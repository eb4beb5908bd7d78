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
