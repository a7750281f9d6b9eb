/**
 * One HTTP exchange, for the only networked command. Built on node:http/node:https rather than the
 * global fetch because every limit must hold *while* bytes arrive, and each failure must be told
 * apart: http.request never follows a redirect (a 3xx is returned, and refused by the caller);
 * the connect timeout and the total timeout are separate timers; the size cap aborts the socket
 * at the first byte over it, before the body is buffered; DNS, refusal, TLS and reset errors keep
 * their errno; and the body is the exact bytes received, never re-decoded text.
 */
import { request as httpRequest, type IncomingHttpHeaders, type ClientRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { fail, ok, type Result } from "../result.js";

export interface HttpLimits {
  /** Milliseconds from the start until the TCP (and TLS) connection is up. */
  readonly connectTimeoutMs: number;
  /** Milliseconds from the start until the whole body has arrived. */
  readonly totalTimeoutMs: number;
  readonly maxBodyBytes: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  connectTimeoutMs: 10_000,
  totalTimeoutMs: 30_000,
  maxBodyBytes: 16 * 1024 * 1024,
};

export interface HttpRequest {
  readonly url: URL;
  readonly method: "GET" | "POST";
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: Uint8Array;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Uint8Array;
}

export interface HttpDeps {
  /** Name resolution; the system resolver unless a test supplies one. */
  readonly lookup?: LookupFunction;
}

const DNS_ERRORS = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"]);

export function describeSocketError(e: NodeJS.ErrnoException, url: URL): Result<never> {
  const where = `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
  const code = e.code ?? "";
  if (code === "ECONNREFUSED") return fail("NET_CONNECTION_REFUSED", `connection refused by ${where}`);
  if (DNS_ERRORS.has(code)) return fail("NET_DNS", `cannot resolve host ${url.hostname} (${code})`);
  if (/^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/.test(code)) {
    return fail("NET_TLS", `TLS with ${where} failed (${code}: ${e.message})`);
  }
  return fail("NET_IO", `connection to ${where} failed (${code || e.message})`);
}

/** Sends one request and reads the whole response, within the limits. Never throws. */
export function exchange(
  req: HttpRequest,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
  deps: HttpDeps = {},
): Promise<Result<HttpResponse>> {
  return new Promise((resolve) => {
    let settled = false;
    let client: ClientRequest | undefined;
    const timers: NodeJS.Timeout[] = [];
    const finish = (r: Result<HttpResponse>) => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      client?.destroy();
      resolve(r);
    };
    const send = req.url.protocol === "https:" ? httpsRequest : httpRequest;
    try {
      client = send(req.url, {
        method: req.method,
        headers: { ...req.headers, ...(req.body ? { "Content-Length": String(req.body.length) } : {}) },
        // A fresh connection per exchange: no pooled socket outlives the command.
        agent: false,
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
      });
    } catch (e) {
      finish(fail("NET_BAD_URL", `cannot send to ${req.url.href}: ${e instanceof Error ? e.message : String(e)}`));
      return;
    }
    timers.push(
      setTimeout(
        () =>
          finish(fail("NET_TIMEOUT", `no complete response from ${req.url.host} within ${limits.totalTimeoutMs} ms`)),
        limits.totalTimeoutMs,
      ),
    );
    const connectTimer = setTimeout(
      () =>
        finish(fail("NET_CONNECT_TIMEOUT", `no connection to ${req.url.host} within ${limits.connectTimeoutMs} ms`)),
      limits.connectTimeoutMs,
    );
    timers.push(connectTimer);
    client.on("socket", (socket) => {
      socket.once(req.url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    client.on("error", (e) => finish(describeSocketError(e as NodeJS.ErrnoException, req.url)));
    client.on("response", (res) => {
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
        finish(
          fail(
            "NET_BODY_TOO_LARGE",
            `the response declares ${declared} bytes, over the ${limits.maxBodyBytes}-byte cap`,
          ),
        );
        return;
      }
      const chunks: Buffer[] = [];
      let total = 0;
      res.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > limits.maxBodyBytes) {
          finish(fail("NET_BODY_TOO_LARGE", `the response body exceeds the ${limits.maxBodyBytes}-byte cap`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", (e) => finish(describeSocketError(e as NodeJS.ErrnoException, req.url)));
      res.on("aborted", () =>
        finish(fail("NET_IO", `the connection to ${req.url.host} closed before the body was complete`)),
      );
      res.on("end", () => {
        if (!res.complete) {
          finish(fail("NET_IO", `the connection to ${req.url.host} closed before the body was complete`));
          return;
        }
        finish(ok({ status: res.statusCode ?? 0, headers: res.headers, body: new Uint8Array(Buffer.concat(chunks)) }));
      });
    });
    client.end(req.body ? Buffer.from(req.body) : undefined);
  });
}
