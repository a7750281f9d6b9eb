/**
 * One unary gRPC call, for `fetch --binding grpc`: HTTP/2 (node:http2; cleartext for an `http://`
 * target, TLS for `https://` or a bare `host:port`), one uncompressed request message, and the
 * answer kept as the exact message bytes the server sent — no generated class decodes it first.
 * The limits of the HTTP exchange hold here too: a connect timeout, a total timeout, a size cap
 * checked as bytes arrive, and each failure told apart. A gRPC status other than OK is a failure
 * naming the status and the server's message; so is a compressed or malformed answer frame.
 */
import { connect, constants, type ClientHttp2Stream, type IncomingHttpHeaders } from "node:http2";
import { fail, ok, type Result } from "../result.js";
import { describeSocketError, settleOnce, startTimers, type HttpDeps, type HttpLimits } from "./http.js";

export interface GrpcCall {
  /** The server's origin: `http://host:port` (cleartext) or `https://host:port`. */
  readonly origin: URL;
  /** `/lf.a2a.v1.A2AService/GetTask`. */
  readonly path: string;
  /** Request metadata, names in lowercase. */
  readonly metadata: Readonly<Record<string, string>>;
  readonly message: Uint8Array;
}

export interface GrpcAnswer {
  readonly httpStatus: number;
  readonly headers: IncomingHttpHeaders;
  /** The one response message, exactly as framed on the wire (without the 5-byte frame header). */
  readonly message: Uint8Array;
}

/** gRPC status names (grpc/doc/statuscodes.md), for messages. */
const STATUS_NAMES = [
  "OK",
  "CANCELLED",
  "UNKNOWN",
  "INVALID_ARGUMENT",
  "DEADLINE_EXCEEDED",
  "NOT_FOUND",
  "ALREADY_EXISTS",
  "PERMISSION_DENIED",
  "RESOURCE_EXHAUSTED",
  "FAILED_PRECONDITION",
  "ABORTED",
  "OUT_OF_RANGE",
  "UNIMPLEMENTED",
  "INTERNAL",
  "UNAVAILABLE",
  "DATA_LOSS",
  "UNAUTHENTICATED",
];

const FRAME_HEADER = 5;

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(", ") : v;
}

/** grpc-message is percent-encoded (gRPC over HTTP/2); a malformed escape is shown as sent. */
function grpcMessage(h: IncomingHttpHeaders): string {
  const m = header(h, "grpc-message") ?? "";
  try {
    return decodeURIComponent(m);
  } catch {
    return m;
  }
}

/** The status a gRPC answer ends with (trailers, or the headers of a trailers-only answer). */
function statusFailure(h: IncomingHttpHeaders, where: string): Result<never> | undefined {
  const status = header(h, "grpc-status");
  if (status === undefined) return fail("NET_UNEXPECTED_RESPONSE", `the gRPC answer from ${where} has no grpc-status`);
  if (status === "0") return undefined;
  const name = STATUS_NAMES[Number(status)] ?? "unknown status";
  const message = grpcMessage(h);
  return fail("NET_GRPC_STATUS", `gRPC status ${status} ${name}${message ? `: ${message}` : ""} from ${where}`);
}

/** The one message of a unary answer's body: one frame, flag 0, its length exactly the rest. */
function unaryMessage(body: Buffer, where: string): Result<Uint8Array> {
  if (body.length < FRAME_HEADER)
    return fail("NET_UNEXPECTED_RESPONSE", `the gRPC answer from ${where} carries no message (${body.length} bytes)`);
  const flag = body[0] as number;
  if (flag !== 0)
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the gRPC answer from ${where} is ${flag === 1 ? "compressed (flag 1), which fetch never asked for" : `framed with flag ${flag}`}`,
    );
  const length = body.readUInt32BE(1);
  if (length !== body.length - FRAME_HEADER)
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the gRPC answer from ${where} announces ${length} bytes and carries ${body.length - FRAME_HEADER} (one unary message expected)`,
    );
  return ok(new Uint8Array(body.subarray(FRAME_HEADER)));
}

function frame(message: Uint8Array): Buffer {
  const out = Buffer.alloc(FRAME_HEADER + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, FRAME_HEADER);
  return out;
}

/** Why the response headers of a gRPC answer refuse it: an HTTP status other than 200, or a type not gRPC. */
function responseFailure(h: IncomingHttpHeaders, where: string): Result<never> | undefined {
  const status = Number(h[constants.HTTP2_HEADER_STATUS]);
  if (status !== 200) return fail("NET_HTTP_STATUS", `HTTP ${status} from ${where} (a gRPC server answers 200)`);
  if (!/^application\/grpc(?:[+;]|$)/.test(header(h, "content-type") ?? ""))
    return fail(
      "NET_UNEXPECTED_RESPONSE",
      `the answer from ${where} is ${header(h, "content-type") ?? "not typed"}, not gRPC`,
    );
  return undefined;
}

/** Reads the whole answer on `stream`: headers, the capped body, trailers, and the status it ends with. */
function readAnswer(
  stream: ClientHttp2Stream,
  call: GrpcCall,
  where: string,
  limits: HttpLimits,
  finish: (r: Result<GrpcAnswer>) => void,
): void {
  // A stream cancelled because its connection failed carries the connection's error (refused, TLS, DNS).
  stream.on("error", (e) => {
    const cause = (e as Error & { cause?: unknown }).cause;
    finish(describeSocketError((cause instanceof Error ? cause : e) as NodeJS.ErrnoException, call.origin));
  });
  let headers: IncomingHttpHeaders = {};
  let trailers: IncomingHttpHeaders | undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  stream.on("response", (h) => {
    headers = h;
    const bad = responseFailure(h, where);
    if (bad) finish(bad);
  });
  stream.on("trailers", (t) => (trailers = t));
  stream.on("data", (chunk: Buffer) => {
    total += chunk.length;
    if (total > limits.maxBodyBytes + FRAME_HEADER)
      finish(fail("NET_BODY_TOO_LARGE", `the gRPC answer exceeds the ${limits.maxBodyBytes}-byte cap`));
    else chunks.push(chunk);
  });
  // A stream reset before its end (RST_STREAM, GOAWAY) says nothing more: one clear failure.
  stream.on("close", () => finish(fail("NET_IO", `the gRPC stream to ${where} closed before the answer was complete`)));
  stream.on("end", () => {
    const bad = statusFailure(trailers ?? headers, where);
    if (bad) return finish(bad);
    const message = unaryMessage(Buffer.concat(chunks), where);
    finish(message.ok ? ok({ httpStatus: 200, headers, message: message.value }) : message);
  });
}

/** Sends one unary call and reads the whole answer, within the limits. Never throws. */
export function grpcUnary(call: GrpcCall, limits: HttpLimits, deps: HttpDeps = {}): Promise<Result<GrpcAnswer>> {
  const where = `${call.origin.host}${call.path}`;
  return new Promise((resolve) => {
    let connection: ReturnType<typeof connect> | undefined;
    const outcome = settleOnce(resolve, () => connection?.destroy());
    const connectTimer = startTimers(outcome, limits, call.origin.host, "answer");
    try {
      connection = connect(call.origin.origin, deps.lookup ? { lookup: deps.lookup } : {});
    } catch (e) {
      outcome.finish(
        fail("NET_BAD_URL", `cannot connect to ${call.origin.href}: ${e instanceof Error ? e.message : String(e)}`),
      );
      return;
    }
    connection.once("connect", () => clearTimeout(connectTimer));
    connection.on("error", (e) => outcome.finish(describeSocketError(e as NodeJS.ErrnoException, call.origin)));
    const stream = connection.request({
      [constants.HTTP2_HEADER_METHOD]: "POST",
      [constants.HTTP2_HEADER_PATH]: call.path,
      [constants.HTTP2_HEADER_CONTENT_TYPE]: "application/grpc",
      te: "trailers",
      ...call.metadata,
    });
    readAnswer(stream, call, where, limits, outcome.finish);
    stream.end(frame(call.message));
  });
}
