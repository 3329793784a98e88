/**
 * The spec's shared request behaviour: GET the query key as a URL with
 * cookies, JSON parsed; any non-ok response raises an error whose message is
 * "<status>: <response text or status text>".
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
  ) {
    super(`${status}: ${body || statusText}`);
  }

  /** The server's JSON error message when the body is DESIGN.md's error shape. */
  get serverMessage(): string | undefined {
    try {
      const parsed = JSON.parse(this.body) as { error?: string; message?: string };
      return parsed.error ?? parsed.message;
    } catch {
      return undefined;
    }
  }
}

async function raise(res: Response): Promise<never> {
  const text = await res.text().catch(() => "");
  throw new HttpError(res.status, text, res.statusText);
}

/** swr fetcher: `useSWR("/api/stats", getJson)`. */
export async function getJson<T = unknown>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: "include", headers: { accept: "application/json" } });
  if (!res.ok) await raise(res);
  return (await res.json()) as T;
}

/** Generic mutation: JSON content-type only when there is a body; throws on any non-ok status. */
export async function sendJson<T = unknown>(method: "POST" | "PUT" | "PATCH" | "DELETE", url: string, body?: unknown): Promise<T> {
  const res = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? { accept: "application/json" } : { accept: "application/json", "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) await raise(res);
  const text = await res.text();
  return (text ? JSON.parse(text) : {}) as T;
}

/** The message to show a person for any thrown value. */
export function errorMessage(err: unknown, fallback = "Unknown error"): string {
  if (err instanceof HttpError) return err.serverMessage ?? err.message;
  if (err instanceof Error) return err.message;
  return fallback;
}
