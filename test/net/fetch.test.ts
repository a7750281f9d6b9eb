/**
 * `fetch` against local node:http servers, one per behaviour: every failure is one line on stderr,
 * exit 2, and nothing written; a good response is saved byte for byte with its sidecar.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { registerFetchCommand, type FetchDeps } from "../../src/cli/fetch.js";
import { EXTENSION_URI } from "../../src/profile.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function serve(handler: Handler): Promise<{ url: string; requests: Recorded[] }> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/a2a`, requests };
}

const TASK = '{"id":"t-1","contextId":"c-1","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"n":60.0}}';

function json(res: ServerResponse, status: number, body: string, type = "application/json"): void {
  res.writeHead(status, { "Content-Type": type, "A2A-Extensions": EXTENSION_URI });
  res.end(body);
}

function outFile(): string {
  return join(mkdtempSync(join(tmpdir(), "a2a-evidence-fetch-")), "out.json");
}

const register =
  (deps: FetchDeps = {}) =>
  (p: Parameters<typeof registerFetchCommand>[0], ctx: Parameters<typeof registerFetchCommand>[1]) =>
    registerFetchCommand(p, ctx, { sleep: async () => undefined, ...deps });

async function fetchCli(args: string[], deps: FetchDeps = {}) {
  const out = outFile();
  const r = await runCommand(register(deps), ["fetch", ...args, "-o", out]);
  return { ...r, out };
}

function expectFailure(r: { code: number; stderr: string; out: string }, code: string, message: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.stderr.split("\n").filter((l) => l !== "")).toHaveLength(1);
  expect(r.stderr).toContain(`a2a-evidence: fetch: ${code}: `);
  expect(r.stderr).toMatch(message);
  expect(existsSync(r.out)).toBe(false);
  expect(existsSync(`${r.out}.fetch.json`)).toBe(false);
}

describe("fetch GetTask: what is sent and what is saved", () => {
  it("JSON-RPC: POSTs GetTask with A2A-Version and A2A-Extensions, saves the exact body and a sidecar", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"result":${TASK}}`;
    const s = await serve((_q, res) => json(res, 200, body));
    const r = await fetchCli([
      "--url",
      s.url,
      "--binding",
      "jsonrpc",
      "--task-id",
      "t-1",
      "--header",
      "Authorization: Bearer s3cret",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(readFileSync(r.out, "utf8")).toBe(body);
    const req = s.requests[0] as Recorded;
    expect(req.method).toBe("POST");
    expect(req.url).toBe("/a2a");
    expect(req.headers["a2a-version"]).toBe("1.0");
    expect(req.headers["a2a-extensions"]).toBe(EXTENSION_URI);
    expect(req.headers.authorization).toBe("Bearer s3cret");
    expect(JSON.parse(req.body)).toEqual({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "t-1" } });
    const side = JSON.parse(readFileSync(`${r.out}.fetch.json`, "utf8"));
    expect(side).toMatchObject({ mode: "get", url: s.url, binding: "jsonrpc" });
    expect(side.exchanges).toHaveLength(1);
    expect(side.exchanges[0]).toMatchObject({
      call: "GetTask",
      method: "POST",
      status: 200,
      contentType: "application/json",
      a2aExtensions: EXTENSION_URI,
      bytes: body.length,
    });
    expect(side.exchanges[0].requestHeaders).toMatchObject({
      "A2A-Version": "1.0",
      "A2A-Extensions": EXTENSION_URI,
      Authorization: "<redacted>",
    });
    expect(readFileSync(`${r.out}.fetch.json`, "utf8")).not.toContain("s3cret");
  });

  it("REST: GETs <url>/<tenant>/tasks/<id>?historyLength=N and saves the bare Task", async () => {
    const s = await serve((_q, res) =>
      json(res, 200, TASK.replace("t-1", "t/1"), "application/a2a+json; charset=utf-8"),
    );
    const r = await fetchCli([
      "--url",
      `${s.url}/`,
      "--binding",
      "rest",
      "--tenant",
      "acme",
      "--task-id",
      "t/1",
      "--history-length",
      "0",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(s.requests[0]).toMatchObject({ method: "GET", url: "/a2a/acme/tasks/t%2F1?historyLength=0" });
    expect(s.requests[0]?.headers.accept).toBe("application/a2a+json, application/json");
    expect(readFileSync(r.out, "utf8")).toBe(TASK.replace("t-1", "t/1"));
  });
});

/** An Agent Card file listing these interfaces. */
const cardFile = (...supportedInterfaces: unknown[]) =>
  tempFile("card.json", JSON.stringify({ name: "n", supportedInterfaces }));
const stderrLines = (stderr: string) => stderr.split("\n").filter((l) => l !== "");

describe("fetch --card: the interface called is the card's first that fetch can call, over the binding it names", () => {
  it("--binding: the first 1.x interface of that binding; the others are not mentioned", async () => {
    const s = await serve((_q, res) => json(res, 200, TASK));
    const card = cardFile(
      { url: "http://127.0.0.1:1/legacy", protocolBinding: "HTTP+JSON", protocolVersion: "0.3" },
      { url: `${s.url}/jsonrpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "t0" },
    );
    const r = await fetchCli(["--card", card, "--binding", "rest", "--task-id", "t-1"]);
    expect(r.code).toBe(0);
    expect(stderrLines(r.stderr)).toEqual([
      "a2a-evidence: fetch: --card: passed over supportedInterfaces[0] (HTTP+JSON 0.3): not A2A 1.x (protocolVersion Major.Minor, 1.x)",
      `a2a-evidence: fetch: --card: calling supportedInterfaces[2] (HTTP+JSON 1.0) at ${s.url} over rest, tenant t0`,
    ]);
    expect(s.requests.map((q) => q.url)).toEqual(["/a2a/t0/tasks/t-1"]);
    expect(JSON.parse(readFileSync(`${r.out}.fetch.json`, "utf8"))).toMatchObject({
      binding: "rest",
      tenant: "t0",
      url: s.url,
      card: { file: card, interface: "supportedInterfaces[2]" },
    });
  });

  it("without --binding: the card's first interface, JSON-RPC here, and no other", async () => {
    const s = await serve((_q, res) => json(res, 200, `{"jsonrpc":"2.0","id":1,"result":${TASK}}`));
    const card = cardFile(
      { url: s.url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      { url: `${s.url}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    );
    const r = await fetchCli(["--card", card, "--task-id", "t-1"]);
    expect(r.code).toBe(0);
    expect(stderrLines(r.stderr)).toEqual([
      `a2a-evidence: fetch: --card: calling supportedInterfaces[0] (JSONRPC 1.0) at ${s.url} over jsonrpc`,
    ]);
    expect(s.requests.map((q) => [q.method, q.url, JSON.parse(q.body).method])).toEqual([["POST", "/a2a", "GetTask"]]);
    expect(JSON.parse(readFileSync(`${r.out}.fetch.json`, "utf8"))).toMatchObject({ binding: "jsonrpc", url: s.url });
  });

  it("a GRPC interface fetch cannot call as --binding grpc (a path), another binding, another version: passed over, each named, then the first it can call", async () => {
    const s = await serve((_q, res) => json(res, 200, TASK));
    const card = cardFile(
      { url: `${s.url}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "SLIMRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
      { url: `ws://${new URL(s.url).host}/a2a`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      "not an interface",
      { url: s.url, protocolBinding: "HTTP+JSON", protocolVersion: "1.1" },
    );
    const r = await fetchCli(["--card", card, "--task-id", "t-1"]);
    expect(r.code).toBe(0);
    expect(stderrLines(r.stderr)).toEqual([
      `a2a-evidence: fetch: --card: passed over supportedInterfaces[0] (GRPC 1.0): url: a gRPC target is host:port (or http://host:port for cleartext), not "${s.url}/grpc"`,
      "a2a-evidence: fetch: --card: passed over supportedInterfaces[1] (SLIMRPC 1.0): fetch speaks JSONRPC, HTTP+JSON and GRPC only",
      "a2a-evidence: fetch: --card: passed over supportedInterfaces[2] (JSONRPC 0.3): not A2A 1.x (protocolVersion Major.Minor, 1.x)",
      "a2a-evidence: fetch: --card: passed over supportedInterfaces[3] (JSONRPC 1.0): url: only http and https URLs are fetched, not ws:",
      "a2a-evidence: fetch: --card: passed over supportedInterfaces[4]: not an object",
      `a2a-evidence: fetch: --card: calling supportedInterfaces[5] (HTTP+JSON 1.1) at ${s.url} over rest`,
    ]);
    // One request, over REST: nothing was sent to the GRPC interface's URL, nor over another binding.
    expect(s.requests.map((q) => [q.method, q.url])).toEqual([["GET", "/a2a/tasks/t-1"]]);
    expect(readFileSync(r.out, "utf8")).toBe(TASK);
  });

  it("-q: the choice is not said on stderr; the sidecar still names the card's entry", async () => {
    const s = await serve((_q, res) => json(res, 200, TASK));
    const card = cardFile(
      { url: `${s.url}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
    );
    const r = await fetchCli(["--card", card, "--task-id", "t-1", "-q"]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, "", ""]);
    expect(JSON.parse(readFileSync(`${r.out}.fetch.json`, "utf8")).card).toEqual({
      file: card,
      interface: "supportedInterfaces[1]",
    });
  });

  it("no interface fetch can call: one line naming each, exit 2, nothing sent, nothing written", async () => {
    const s = await serve((_q, res) => json(res, 200, TASK));
    const card = cardFile(
      { url: `${s.url}/grpc`, protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "JSONRPC", protocolVersion: "0.3" },
    );
    const r = await fetchCli(["--card", card, "--task-id", "t-1"]);
    expect(r.code).toBe(2);
    expect(stderrLines(r.stderr)).toEqual([
      `a2a-evidence: fetch: --card: ${card} lists no A2A 1.x JSONRPC, HTTP+JSON or GRPC interface fetch can call (supportedInterfaces[0] (GRPC 1.0): url: a gRPC target is host:port (or http://host:port for cleartext), not "${s.url}/grpc"; supportedInterfaces[1] (JSONRPC 0.3): not A2A 1.x (protocolVersion Major.Minor, 1.x))`,
    ]);
    const rest = await fetchCli(["--card", card, "--binding", "rest", "--task-id", "t-1"]);
    expect(rest.code).toBe(2);
    expect(rest.stderr).toBe(
      `a2a-evidence: fetch: --card: ${card} lists no A2A 1.x HTTP+JSON interface fetch can call\n`,
    );
    expect(s.requests).toEqual([]);
    expect(existsSync(r.out) || existsSync(rest.out)).toBe(false);
  });

  it("a usage error after the card is read is the only line: the choice is said only when a call follows", async () => {
    const s = await serve((_q, res) => json(res, 200, TASK));
    const card = cardFile({ url: s.url, protocolBinding: "JSONRPC", protocolVersion: "1.0" });
    const r = await fetchCli(["--card", card, "--send", "--text", "x", "--polls", "0"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('a2a-evidence: fetch: --polls: expected an integer in 1..1000, got "0"\n');
    expect(s.requests).toEqual([]);
  });

  it("the card's GRPC interface, first, is called over gRPC even when the server there is no gRPC server: no fallback to another binding", async () => {
    const s = await serve((_q, res) => json(res, 200, `{"jsonrpc":"2.0","id":1,"result":${TASK}}`));
    const origin = new URL(s.url).origin;
    const card = cardFile(
      { url: origin, protocolBinding: "GRPC", protocolVersion: "1.0" },
      { url: s.url, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
    );
    const r = await fetchCli(["--card", card, "--task-id", "t-1"]);
    expect(r.code).toBe(2);
    const lines = stderrLines(r.stderr);
    expect(lines[0]).toBe(
      `a2a-evidence: fetch: --card: calling supportedInterfaces[0] (GRPC 1.0) at ${origin}/ over grpc`,
    );
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/^a2a-evidence: fetch: NET_[A-Z_]+: /);
    // The HTTP/1.1 server was never asked anything in JSON-RPC.
    expect(s.requests.filter((q) => q.method === "POST")).toEqual([]);
    expect(existsSync(r.out)).toBe(false);
  });
});

describe("fetch: every failure is one line, exit 2, nothing written", () => {
  it("refused connection", async () => {
    const s = await serve(() => undefined);
    const port = new URL(s.url).port;
    await new Promise((r) => (servers.pop() as Server).close(r));
    expectFailure(
      await fetchCli(["--url", `http://127.0.0.1:${port}/a2a`, "--binding", "jsonrpc", "--task-id", "t"]),
      "NET_CONNECTION_REFUSED",
      /connection refused by 127\.0\.0\.1:\d+/,
    );
  });

  it("DNS failure", async () => {
    const lookup: FetchDeps["lookup"] = (hostname, _o, cb) => {
      const e = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
      (cb as (e: Error) => void)(e);
    };
    expectFailure(
      await fetchCli(["--url", "http://agent.invalid/a2a", "--binding", "jsonrpc", "--task-id", "t"], { lookup }),
      "NET_DNS",
      /cannot resolve host agent\.invalid \(ENOTFOUND\)/,
    );
  });

  it("timeout: a server that never answers", async () => {
    const s = await serve(() => undefined);
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "jsonrpc", "--task-id", "t", "--timeout", "150"]),
      "NET_TIMEOUT",
      /no complete response .* within 150 ms/,
    );
  });

  it("non-2xx, with the google.rpc.Status it carried", async () => {
    const s = await serve((_q, res) =>
      json(
        res,
        404,
        '{"error":{"code":404,"status":"NOT_FOUND","message":"Task not found: t","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}',
      ),
    );
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--task-id", "t"]),
      "NET_HTTP_STATUS",
      /HTTP 404 NOT_FOUND: Task not found: t \(TASK_NOT_FOUND\)/,
    );
  });

  it("JSON-RPC error response (HTTP 200)", async () => {
    const s = await serve((_q, res) =>
      json(
        res,
        200,
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32009,"message":"version not supported","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"VERSION_NOT_SUPPORTED"}]}}',
      ),
    );
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "jsonrpc", "--task-id", "t"]),
      "NET_JSONRPC_ERROR",
      /JSON-RPC error -32009: version not supported \(VERSION_NOT_SUPPORTED\)/,
    );
  });

  it("a JSON-RPC response to another request id", async () => {
    const s = await serve((_q, res) => json(res, 200, `{"jsonrpc":"2.0","id":7,"result":${TASK}}`));
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "jsonrpc", "--task-id", "t-1"]),
      "NET_JSONRPC_MISMATCH",
      /id 7 does not answer request id 1/,
    );
  });

  it("oversize body, declared", async () => {
    const s = await serve((_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": String(17 * 1024 * 1024) });
      res.write("{");
    });
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--task-id", "t"]),
      "NET_BODY_TOO_LARGE",
      /declares 17825792 bytes, over the 16777216-byte cap/,
    );
  });

  it("oversize body, streamed without a length", async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const s = await serve((_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      let sent = 0;
      const more = () => {
        while (sent < 17 && res.write(chunk)) sent++;
        if (sent < 17) res.once("drain", more);
        else res.end();
      };
      more();
    });
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--task-id", "t"]),
      "NET_BODY_TOO_LARGE",
      /body exceeds the 16777216-byte cap/,
    );
  });

  it("redirect: never followed", async () => {
    const s = await serve((_q, res) => {
      res.writeHead(302, { Location: "http://127.0.0.1:1/elsewhere" });
      res.end();
    });
    const r = await fetchCli(["--url", s.url, "--binding", "jsonrpc", "--task-id", "t"]);
    expectFailure(r, "NET_REDIRECT", /HTTP 302 redirect to http:\/\/127\.0\.0\.1:1\/elsewhere refused/);
    expect(s.requests).toHaveLength(1);
  });

  it("non-JSON body: by content type, and by content", async () => {
    const html = await serve((_q, res) => json(res, 200, "<html></html>", "text/html"));
    expectFailure(
      await fetchCli(["--url", html.url, "--binding", "rest", "--task-id", "t"]),
      "NET_NOT_JSON",
      /is text\/html, not JSON/,
    );
    const dup = await serve((_q, res) => json(res, 200, '{"id":"t","id":"u","status":{}}'));
    expectFailure(
      await fetchCli(["--url", dup.url, "--binding", "rest", "--task-id", "t"]),
      "NET_NOT_JSON",
      /not strict JSON: .*DUPLICATE/i,
    );
  });

  it("a JSON body that is not a Task, or another Task", async () => {
    const s = await serve((_q, res) => json(res, 200, '{"hello":"world"}'));
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--task-id", "t"]),
      "NET_UNEXPECTED_RESPONSE",
      /is not an A2A Task/,
    );
    const other = await serve((_q, res) => json(res, 200, TASK));
    expectFailure(
      await fetchCli(["--url", other.url, "--binding", "rest", "--task-id", "t-2"]),
      "NET_UNEXPECTED_RESPONSE",
      /GetTask for t-2 answered with Task "t-1"/,
    );
  });

  it("usage: URL scheme, credentials in the URL, missing binding, both modes", async () => {
    const scheme = await fetchCli(["--url", "file:///etc/passwd", "--binding", "rest", "--task-id", "t"]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toBe("a2a-evidence: fetch: --url: only http and https URLs are fetched, not file:\n");
    const cred = await fetchCli(["--url", "http://u:p@127.0.0.1:1/a2a", "--binding", "rest", "--task-id", "t"]);
    expect(cred.code).toBe(2);
    expect(cred.stderr).toMatch(/a URL with credentials is refused/);
    const noBinding = await fetchCli(["--url", "http://127.0.0.1:1/a2a", "--task-id", "t"]);
    expect(noBinding.stderr).toMatch(/--url needs --binding/);
    const both = await fetchCli([
      "--url",
      "http://127.0.0.1:1/a2a",
      "--binding",
      "rest",
      "--task-id",
      "t",
      "--send",
      "--text",
      "x",
    ]);
    expect(both.stderr).toMatch(/exactly one of --task-id/);
  });
});

describe("fetch --send", () => {
  function taskServer(
    states: string[],
    first = '{"task":{"id":"t-9","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"}}}',
  ) {
    let polls = 0;
    return serve((req, res, body) => {
      if (req.method === "POST" && req.url?.endsWith("/message:send")) return json(res, 200, first);
      if (req.method === "GET") {
        const state = states[Math.min(polls++, states.length - 1)];
        return json(res, 200, `{"id":"t-9","contextId":"c","status":{"state":"${state}"},"metadata":{"x":1.50}}`);
      }
      json(res, 400, body);
    });
  }

  it("sends the requirement non-blocking, polls to a terminal state, saves {request, firstTask, finalTask} from the exact bytes", async () => {
    const s = await taskServer(["TASK_STATE_WORKING", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED"]);
    const r = await fetchCli(
      ["--url", s.url, "--binding", "rest", "--send", "--text", "seal this", "--min-evidence", "EXTERNALLY_REGISTERED"],
      { messageId: () => "m-1" },
    );
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Task t-9 reached TASK_STATE_COMPLETED after 3 GetTask polls/);
    const sent = JSON.parse(s.requests[0]?.body ?? "");
    expect(sent).toEqual({
      message: {
        messageId: "m-1",
        role: "ROLE_USER",
        parts: [{ text: "seal this", mediaType: "text/plain" }],
        extensions: [EXTENSION_URI],
        metadata: {
          [EXTENSION_URI]: {
            requirement: "REQUIRED",
            recordProfile: "https://agentactioncapsule.org/profiles/a2a-task-evidence/aac-cll-scitt/v1",
            minimumEvidence: "EXTERNALLY_REGISTERED",
            deliveryModes: ["EVIDENCE_ARTIFACT"],
            maximumRegistrationDelaySeconds: 60,
            requireTask: true,
          },
        },
      },
      configuration: { returnImmediately: true },
    });
    expect(s.requests.map((q) => `${q.method} ${q.url}`)).toEqual([
      "POST /a2a/message:send",
      "GET /a2a/tasks/t-9",
      "GET /a2a/tasks/t-9",
      "GET /a2a/tasks/t-9",
    ]);
    // The Message exactly as sent, then the two responses' own bytes.
    expect(readFileSync(r.out, "utf8")).toBe(
      `{"request":${JSON.stringify(sent.message)},"firstTask":{"id":"t-9","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"}},"finalTask":{"id":"t-9","contextId":"c","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"x":1.50}}}\n`,
    );
    expect(s.requests[0]?.body).toContain(JSON.stringify(sent.message));
    const side = JSON.parse(readFileSync(`${r.out}.fetch.json`, "utf8"));
    expect(side).toMatchObject({ mode: "send", polls: 3 });
    expect(side.exchanges.map((e: { call: string }) => e.call)).toEqual(["SendMessage", "GetTask"]);
  });

  it("a bounded number of polls: a Task that never ends is an error", async () => {
    const s = await taskServer(["TASK_STATE_WORKING"]);
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--send", "--text", "x", "--polls", "4"]),
      "NET_NOT_TERMINAL",
      /still TASK_STATE_WORKING after 4 GetTask polls/,
    );
    expect(s.requests).toHaveLength(5);
  });

  it("an interrupted Task stops the polling", async () => {
    const s = await taskServer(["TASK_STATE_INPUT_REQUIRED"]);
    expectFailure(
      await fetchCli(["--url", s.url, "--binding", "rest", "--send", "--text", "x"]),
      "NET_NOT_TERMINAL",
      /waiting \(TASK_STATE_INPUT_REQUIRED\)/,
    );
  });

  it("a direct Message reply is saved as the capture's firstTask, with no polling", async () => {
    const s = await taskServer([], '{"message":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"no"}]}}');
    const r = await fetchCli(["--url", s.url, "--binding", "rest", "--send", "--text", "x"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/direct Message/);
    const sent = JSON.stringify(JSON.parse(s.requests[0]?.body ?? "").message);
    expect(readFileSync(r.out, "utf8")).toBe(
      `{"request":${sent},"firstTask":{"messageId":"r","role":"ROLE_AGENT","parts":[{"text":"no"}]}}\n`,
    );
    expect(s.requests).toHaveLength(1);
  });
});

describe("fetch: what a hostile server says cannot take over the terminal or the CI log", () => {
  // ESC starts terminal escape sequences; a line break would let the rest of the line start a
  // GitHub Actions workflow command (`::add-mask::`, a forged `::notice::`) in the job's log.
  const HOSTILE = "bad\\u001b[2J\\r\\n::notice title=ok::evidence verified\\u202e";
  const SHOWN = "bad\\u001b[2J\\u000d\\u000a::notice title=ok::evidence verified\\u202e";

  it("a JSON-RPC error message: one line on stderr, its controls written as \\uXXXX", async () => {
    const s = await serve((_q, res) =>
      json(res, 200, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"${HOSTILE}"}}`),
    );
    const r = await fetchCli(["--url", s.url, "--binding", "jsonrpc", "--task-id", "t"]);
    expectFailure(r, "NET_JSONRPC_ERROR", /JSON-RPC error -32001: /);
    expect(r.stderr).not.toMatch(/[\u001b\r\u202e]/);
    expect(r.stderr).toContain(SHOWN);
  });

  it("an HTTP error status's message, the same", async () => {
    const s = await serve((_q, res) =>
      json(res, 404, `{"error":{"code":404,"status":"NOT_FOUND","message":"${HOSTILE}"}}`),
    );
    const r = await fetchCli(["--url", s.url, "--binding", "rest", "--task-id", "t"]);
    expectFailure(r, "NET_HTTP_STATUS", /HTTP 404 NOT_FOUND: /);
    expect(r.stderr).not.toMatch(/[\u001b\r\u202e]/);
    expect(r.stderr).toContain(SHOWN);
  });

  it("the Task id a server assigns, in the summary line and in a polling error", async () => {
    const id = "t\\u001b]0;pwned\\u0007\\n::error::forged";
    const shownId = "t\\u001b]0;pwned\\u0007\\u000a::error::forged";
    const served = (state: string) => `{"id":"${id}","contextId":"c","status":{"state":"${state}"}}`;
    const done = await serve((req, res) =>
      json(
        res,
        200,
        req.method === "POST" ? `{"task":${served("TASK_STATE_SUBMITTED")}}` : served("TASK_STATE_COMPLETED"),
      ),
    );
    const ok = await fetchCli(["--url", done.url, "--binding", "rest", "--send", "--text", "x"]);
    expect(ok.code).toBe(0);
    expect(ok.stdout.split("\n")).toHaveLength(2);
    expect(ok.stdout).not.toMatch(/[\u0007\u001b]/);
    expect(ok.stdout).toContain(`Task ${shownId} reached TASK_STATE_COMPLETED`);

    const stuck = await serve((req, res) =>
      json(res, 200, req.method === "POST" ? `{"task":${served("TASK_STATE_SUBMITTED")}}` : served("WORK\\u001bING")),
    );
    const r = await fetchCli(["--url", stuck.url, "--binding", "rest", "--send", "--text", "x", "--polls", "2"]);
    expectFailure(r, "NET_NOT_TERMINAL", /after 2 GetTask polls/);
    expect(r.stderr).not.toMatch(/[\u0007\u001b]/);
    expect(r.stderr).toContain(`Task ${shownId} is still WORK\\u001bING`);
  });
});
