/**
 * One HTTP exchange, for the only networked command. Built on node:http/node:https rather than the
 * global fetch because every limit must hold *while* bytes arrive, and each failure must be told
 * apart: http.request never follows a redirect (a 3xx is returned, and refused by the caller);
 * the connect timeout and the total timeout are separate timers; the size cap aborts the socket
 * at the first byte over it, before the body is buffered; DNS, refusal, TLS and reset errors keep
 * their errno; and the body is the exact bytes received, never re-decoded text.
 */
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ClientRequest } from "node:http";
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

/** The one outcome of an exchange: the first result wins, stops the timers and closes the connection. */
export interface Outcome<T> {
  readonly finish: (r: Result<T>) => void;
  readonly timers: NodeJS.Timeout[];
}

export function settleOnce<T>(resolve: (r: Result<T>) => void, close: () => void): Outcome<T> {
  const timers: NodeJS.Timeout[] = [];
  let settled = false;
  const finish = (r: Result<T>) => {
    if (settled) return;
    settled = true;
    for (const t of timers) clearTimeout(t);
    close();
    resolve(r);
  };
  return { finish, timers };
}

/**
 * Starts the total timer, then the connect timer, of an exchange with `host`; `what` names the
 * awaited whole ("response", "answer"). Returns the connect timer, to clear once connected.
 */
export function startTimers<T>(outcome: Outcome<T>, limits: HttpLimits, host: string, what: string): NodeJS.Timeout {
  outcome.timers.push(
    setTimeout(
      () => outcome.finish(fail("NET_TIMEOUT", `no complete ${what} from ${host} within ${limits.totalTimeoutMs} ms`)),
      limits.totalTimeoutMs,
    ),
  );
  const connectTimer = setTimeout(
    () => outcome.finish(fail("NET_CONNECT_TIMEOUT", `no connection to ${host} within ${limits.connectTimeoutMs} ms`)),
    limits.connectTimeoutMs,
  );
  outcome.timers.push(connectTimer);
  return connectTimer;
}

/** Opens the request; a synchronous refusal (a bad URL or header) is a failure, not a throw. */
function openRequest(req: HttpRequest, deps: HttpDeps): Result<ClientRequest> {
  const send = req.url.protocol === "https:" ? httpsRequest : httpRequest;
  try {
    return ok(
      send(req.url, {
        method: req.method,
        headers: { ...req.headers, ...(req.body ? { "Content-Length": String(req.body.length) } : {}) },
        // A fresh connection per exchange: no pooled socket outlives the command.
        agent: false,
        ...(deps.lookup ? { lookup: deps.lookup } : {}),
      }),
    );
  } catch (e) {
    return fail("NET_BAD_URL", `cannot send to ${req.url.href}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Reads the whole body of a response, refusing it at the first byte over the cap. */
function readResponse(
  res: IncomingMessage,
  url: URL,
  limits: HttpLimits,
  finish: (r: Result<HttpResponse>) => void,
): void {
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    finish(
      fail("NET_BODY_TOO_LARGE", `the response declares ${declared} bytes, over the ${limits.maxBodyBytes}-byte cap`),
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
  res.on("error", (e) => finish(describeSocketError(e as NodeJS.ErrnoException, url)));
  res.on("aborted", () => finish(fail("NET_IO", `the connection to ${url.host} closed before the body was complete`)));
  res.on("end", () => {
    if (!res.complete) {
      finish(fail("NET_IO", `the connection to ${url.host} closed before the body was complete`));
      return;
    }
    finish(ok({ status: res.statusCode ?? 0, headers: res.headers, body: new Uint8Array(Buffer.concat(chunks)) }));
  });
}

/** Sends one request and reads the whole response, within the limits. Never throws. */
export function exchange(
  req: HttpRequest,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
  deps: HttpDeps = {},
): Promise<Result<HttpResponse>> {
  return new Promise((resolve) => {
    const opened = openRequest(req, deps);
    if (!opened.ok) {
      resolve(opened);
      return;
    }
    const client = opened.value;
    const outcome = settleOnce(resolve, () => client.destroy());
    const connectTimer = startTimers(outcome, limits, req.url.host, "response");
    client.on("socket", (socket) => {
      socket.once(req.url.protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(connectTimer));
    });
    client.on("error", (e) => outcome.finish(describeSocketError(e as NodeJS.ErrnoException, req.url)));
    client.on("response", (res) => readResponse(res, req.url, limits, outcome.finish));
    client.end(req.body ? Buffer.from(req.body) : undefined);
  });
}
