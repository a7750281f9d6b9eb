/**
 * `fetch --binding grpc` against local HTTP/2 servers on 127.0.0.1 that answer as a gRPC server
 * would, or as one must not be trusted to: every failure is one line on stderr, exit 2, nothing
 * written; a good answer is saved byte for byte, with the metadata sent recorded (credentials
 * redacted) in the sidecar.
 */
import { createServer, constants, type Http2Server, type IncomingHttpHeaders } from "node:http2";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerFetchCommand } from "../../src/cli/fetch.js";
import { EXTENSION_URI } from "../../src/profile.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";

interface Answer {
  readonly status?: number;
  readonly contentType?: string;
  /** The body: message frames, as built by `frame`. */
  readonly body?: Buffer;
  /** grpc-status and grpc-message in the trailers; omitted: no trailers at all. */
  readonly grpcStatus?: string;
  readonly grpcMessage?: string;
}

const servers: Http2Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A server that answers each call with `answer(path)`; the request headers it saw are kept. */
async function serve(answer: (path: string) => Answer): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer();
  server.on("stream", (stream, headers) => {
    seen.push(headers);
    stream.on("data", () => {});
    stream.on("end", () => {
      const a = answer(String(headers[constants.HTTP2_HEADER_PATH]));
      stream.respond(
        { ":status": a.status ?? 200, "content-type": a.contentType ?? "application/grpc" },
        { waitForTrailers: a.grpcStatus !== undefined },
      );
      stream.on("wantTrailers", () =>
        stream.sendTrailers({
          "grpc-status": a.grpcStatus as string,
          ...(a.grpcMessage ? { "grpc-message": a.grpcMessage } : {}),
        }),
      );
      stream.end(a.body ?? Buffer.alloc(0));
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

function frame(message: Buffer, flag = 0): Buffer {
  const header = Buffer.alloc(5);
  header[0] = flag;
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

const str = (field: number, s: string) => {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([Buffer.from([(field << 3) | 2, b.length]), b]);
};
/** Task { id = 1; status = 3 { state = 1 } }: state 3 is COMPLETED. */
const task = (id: string, ...extra: Buffer[]) =>
  Buffer.concat([str(1, id), ...extra, Buffer.from([(3 << 3) | 2, 2, 0x08, 3])]);

const outFile = () => join(mkdtempSync(join(tmpdir(), "a2a-evidence-fetch-grpc-")), "out.binpb");
const fetchCli = (args: string[]) => runCommand((p, ctx) => registerFetchCommand(p, ctx), ["fetch", ...args]);

async function getTask(answer: Answer, id = "t-1"): Promise<{ code: number; stderr: string; file: string }> {
  const { url } = await serve(() => answer);
  const file = outFile();
  const r = await fetchCli(["--url", url, "--binding", "grpc", "--task-id", id, "-o", file]);
  return { code: r.code, stderr: r.stderr, file };
}

describe("fetch --binding grpc, answers a gRPC client must not take", () => {
  const cases: [string, Answer, RegExp][] = [
    [
      "a status other than OK",
      { grpcStatus: "5", grpcMessage: "no%20such%20Task" },
      /^NET_GRPC_STATUS: gRPC status 5 NOT_FOUND: no such Task from 127\.0\.0\.1:\d+\/lf\.a2a\.v1\.A2AService\/GetTask$/,
    ],
    ["an HTTP status other than 200", { status: 503, grpcStatus: "0" }, /^NET_HTTP_STATUS: HTTP 503 from .*GetTask/],
    [
      "an answer that is not gRPC",
      { contentType: "text/html", body: Buffer.from("<html>"), grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: the answer from .* is text\/html, not gRPC$/,
    ],
    [
      "no grpc-status",
      { body: frame(task("t-1")) },
      /^NET_UNEXPECTED_RESPONSE: the gRPC answer from .* has no grpc-status$/,
    ],
    [
      "a compressed message",
      { body: frame(task("t-1"), 1), grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: .* is compressed \(flag 1\), which fetch never asked for$/,
    ],
    [
      "two messages to a unary call",
      { body: Buffer.concat([frame(task("t-1")), frame(task("t-1"))]), grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: .* announces \d+ bytes and carries \d+ \(one unary message expected\)$/,
    ],
    [
      "no message",
      { grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: the gRPC answer from .* carries no message \(0 bytes\)$/,
    ],
    [
      "a Task whose id is given twice (a lenient decoder keeps the last)",
      { body: frame(task("t-1", str(1, "t-2"))), grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: the GetTask answer from .* is not a strict protobuf Task: INPUT_PROTOBUF_DUPLICATE: singular field id is given twice \(at byte 5, id\)$/,
    ],
    [
      "another Task than asked for",
      { body: frame(task("t-2")), grpcStatus: "0" },
      /^NET_UNEXPECTED_RESPONSE: GetTask for t-1 answered with Task "t-2"$/,
    ],
  ];
  for (const [what, answer, message] of cases) {
    it(`${what}: one line, exit 2, nothing written`, async () => {
      const r = await getTask(answer);
      expect(r.code).toBe(2);
      expect(r.stderr.endsWith("\n")).toBe(true);
      expect(r.stderr.split("\n")).toHaveLength(2);
      expect(r.stderr.replace(/^a2a-evidence: fetch: /, "").trimEnd()).toMatch(message);
      expect(existsSync(r.file)).toBe(false);
    });
  }
});

describe("fetch --binding grpc, a server that never answers", () => {
  it("is NET_TIMEOUT after --timeout, one line, exit 2, nothing written", async () => {
    const server = createServer();
    server.on("stream", () => {}); // takes the call, never answers
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const file = outFile();
    const r = await fetchCli(["--url", url, "--binding", "grpc", "--task-id", "t-1", "--timeout", "200", "-o", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^a2a-evidence: fetch: NET_TIMEOUT: no complete answer from 127\.0\.0\.1:\d+ within 200 ms\n$/,
    );
    expect(existsSync(file)).toBe(false);
  });
});

describe("fetch --binding grpc, a good answer", () => {
  it("GetTask: the message saved byte for byte; the metadata sent, credentials redacted in the sidecar", async () => {
    const message = task("t-1");
    const { url, seen } = await serve(() => ({ body: frame(message), grpcStatus: "0" }));
    const file = outFile();
    const r = await fetchCli([
      ...["--url", url, "--binding", "grpc", "--task-id", "t-1", "--tenant", "acme", "--history-length", "2"],
      ...["--header", "Authorization: Bearer s3cret", "-o", file],
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(file)).toEqual(message);
    expect(seen[0]).toMatchObject({
      ":method": "POST",
      ":path": "/lf.a2a.v1.A2AService/GetTask",
      "content-type": "application/grpc",
      te: "trailers",
      "a2a-version": "1.0",
      "a2a-extensions": EXTENSION_URI,
      authorization: "Bearer s3cret",
    });
    const side = JSON.parse(readFileSync(`${file}.fetch.json`, "utf8"));
    expect(side).toMatchObject({ mode: "get", binding: "grpc", tenant: "acme" });
    expect(side.exchanges[0]).toMatchObject({
      call: "GetTask",
      url: `${url}/lf.a2a.v1.A2AService/GetTask`,
      status: 200,
      contentType: "application/grpc",
      bytes: message.length,
    });
    expect(side.exchanges[0].requestHeaders.authorization).toBe("<redacted>");
  });

  it("--send answered with a direct Message: the capture holds it as firstTask, its binary answer beside it", async () => {
    // SendMessageResponse { message = 2 { message_id = 1; role = 4 (AGENT) } }
    const reply = Buffer.concat([str(1, "reply-1"), Buffer.from([4 << 3, 2])]);
    const response = Buffer.concat([Buffer.from([(2 << 3) | 2, reply.length]), reply]);
    const { url } = await serve(() => ({ body: frame(response), grpcStatus: "0" }));
    const file = outFile();
    const r = await fetchCli(["--url", url, "--binding", "grpc", "--send", "--text", "hello", "-o", file]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/answered with a direct Message/);
    const capture = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(capture)).toEqual(["request", "firstTask"]);
    expect(capture.firstTask).toEqual({ messageId: "reply-1", role: "ROLE_AGENT" });
    expect(readFileSync(`${file}.first.binpb`)).toEqual(response);
    expect(existsSync(`${file}.final.binpb`)).toBe(false);
  });
});

describe("fetch --card: the card's first interface is GRPC", () => {
  const cardOf = (...supportedInterfaces: Record<string, unknown>[]) =>
    tempFile("card.json", JSON.stringify({ name: "n", supportedInterfaces }));

  it("a target fetch can call as --binding grpc: called over gRPC, said on stderr, named in the sidecar", async () => {
    const message = task("t-1");
    const { url, seen } = await serve(() => ({ body: frame(message), grpcStatus: "0" }));
    const card = cardOf(
      { url, protocolBinding: "GRPC", protocolVersion: "1.0", tenant: "acme" },
      { url: `${url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    );
    const file = outFile();
    const r = await fetchCli(["--card", card, "--task-id", "t-1", "-o", file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `a2a-evidence: fetch: --card: calling supportedInterfaces[0] (GRPC 1.0) at ${url}/ over grpc, tenant acme\n`,
    );
    expect(seen.map((h) => h[constants.HTTP2_HEADER_PATH])).toEqual(["/lf.a2a.v1.A2AService/GetTask"]);
    expect(readFileSync(file)).toEqual(message);
    const side = JSON.parse(readFileSync(`${file}.fetch.json`, "utf8"));
    expect(side).toMatchObject({ binding: "grpc", tenant: "acme", card: { interface: "supportedInterfaces[0]" } });
  });

  it("a bare host:port is TLS, as --url host:port --binding grpc: the same failure against a cleartext server, no other binding tried", async () => {
    const { url, seen } = await serve(() => ({ body: frame(task("t-1")), grpcStatus: "0" }));
    const hostPort = new URL(url).host;
    const card = cardOf(
      { url: hostPort, protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: `${url}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    );
    const viaCard = await fetchCli(["--card", card, "--task-id", "t-1", "--timeout", "5000", "-o", outFile()]);
    const viaUrl = await fetchCli([
      "--url",
      hostPort,
      "--binding",
      "grpc",
      "--task-id",
      "t-1",
      "--timeout",
      "5000",
      "-o",
      outFile(),
    ]);
    expect([viaCard.code, viaUrl.code]).toEqual([2, 2]);
    const lines = viaCard.stderr.split("\n").filter((l) => l !== "");
    expect(lines).toEqual([
      `a2a-evidence: fetch: --card: calling supportedInterfaces[0] (GRPC 1.0) at https://${hostPort}/ over grpc`,
      viaUrl.stderr.trimEnd(),
    ]);
    expect(viaUrl.stderr).toMatch(/^a2a-evidence: fetch: NET_[A-Z_]+: .+\n$/);
    expect(seen).toEqual([]);
  });
});
