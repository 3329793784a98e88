/** A minimal cookie-keeping HTTP client for server tests: one instance = one browser. */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  /** Every Set-Cookie header this browser received, newest last. */
  readonly setCookies: string[] = [];

  constructor(private readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async fetch(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.cookieHeader());
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const res = await fetch(path.startsWith("http") ? path : this.baseUrl + path, { ...init, headers, body, redirect: init.redirect ?? "manual" });
    for (const line of res.headers.getSetCookie()) {
      this.setCookies.push(line);
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /max-age=0\b/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async json<T = Record<string, any>>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: T; res: Response }> {
    const res = await this.fetch(path, init);
    return { status: res.status, body: (await res.json()) as T, res };
  }

  /** The Set-Cookie line for `name` in a response, if any. */
  static setCookieFor(res: Response, name: string): string | undefined {
    return res.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
  }
}
