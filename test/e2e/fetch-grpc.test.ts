/**
 * `fetch --binding grpc` against the live SDK server's gRPC service on 127.0.0.1: send mode's
 * capture (the Message sent, the two answers as ProtoJSON, the binary answers beside it) verifies
 * as the binary answers do; the Agent Card's GRPC interface is used; and each failure — a gRPC
 * status, a server that is no gRPC server, nothing listening, a target that is no host:port — is
 * one line, exit 2, nothing written.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { registerFetchCommand } from "../../src/cli/fetch.js";
import { verify, type Report } from "../../src/index.js";
import { base64ToBytesStrict } from "../../src/util/bytes.js";
import { EXTENSION_URI } from "../../producer/constants.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";
import { KIND_EXPECTATIONS, type KindExpectation } from "./expectations.js";
import { runGrpcTask, useGrpcServer } from "./grpc-raw.js";
import { expectReport, MIN, TRUST, verified } from "./reports.js";

const EXPECTED = KIND_EXPECTATIONS["one-shot"] as KindExpectation;

const live = useGrpcServer();
const out = (name = "saved") => join(mkdtempSync(join(tmpdir(), "a2a-evidence-grpc-fetch-")), name);
const fetchCli = (args: string[]) => runCommand((p, ctx) => registerFetchCommand(p, ctx), ["fetch", ...args]);
const grpcUrl = () => `http://${live().server.grpcAddress}`;
/** GetTask of Task `t` at `url` over gRPC. */
const getTaskAt = (url: string) => fetchCli(["--url", url, "--binding", "grpc", "--task-id", "t", "-o", out()]);

function reportOf(data: Uint8Array, firstTask?: Uint8Array): Report {
  return verify({
    inputs: [{ source: "input", data }],
    ...(firstTask ? { firstTask } : {}),
    trust: TRUST,
    minEvidence: MIN,
  });
}

/** The evidence bundle bytes of a ProtoJSON Task (its evidence Artifact's raw part). */
function bundleOf(task: Record<string, unknown>): Uint8Array | undefined {
  const artifacts = task.artifacts as { extensions?: string[]; parts: { raw?: string }[] }[];
  const raw64 = artifacts.find((a) => a.extensions?.includes(EXTENSION_URI))?.parts[0]?.raw;
  return raw64 === undefined ? undefined : base64ToBytesStrict(raw64);
}

describe("fetch --binding grpc against an @a2a-js/sdk gRPC server", () => {
  it("--send: the capture records the Message sent and verifies as the binary answers beside it do", async () => {
    const file = out("capture.json");
    const r = await fetchCli([
      ...["--url", grpcUrl(), "--binding", "grpc", "--send", "--text", "seal this over grpc"],
      ...["--min-evidence", "EXTERNALLY_REGISTERED", "--poll-interval", "10", "--polls", "1000", "-o", file],
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/over grpc\): Task .* reached TASK_STATE_COMPLETED/);
    const capture = JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, unknown>>;
    expect(Object.keys(capture)).toEqual(["request", "firstTask", "finalTask"]);
    const side = JSON.parse(readFileSync(`${file}.fetch.json`, "utf8"));
    expect(side.exchanges.map((e: { call: string }) => e.call)).toEqual(["SendMessage", "GetTask"]);
    expect(side.exchanges[0]).toMatchObject({ status: 200, a2aExtensions: EXTENSION_URI });
    expect(side.exchanges[0].requestHeaders).toMatchObject({ "a2a-version": "1.0", "a2a-extensions": EXTENSION_URI });
    const first = new Uint8Array(readFileSync(`${file}.first.binpb`));
    const final = new Uint8Array(readFileSync(`${file}.final.binpb`));
    // The capture's Task and the binary Task carry the same bundle bytes, exactly.
    const binaryReport = reportOf(final, first);
    const captureReport = verify({ inputs: [{ source: file, data: readFileSync(file) }], trust: TRUST });
    expectReport(binaryReport, EXPECTED);
    expectReport(captureReport, EXPECTED);
    expect(verified(captureReport).evidenceId).toBe(verified(binaryReport).evidenceId);
    expect(bundleOf(capture.finalTask as Record<string, unknown>)).toBeDefined();
    expect(
      verified(captureReport).properties.taskBinding.checks.find((c) => c.id === "transcript.request")?.state,
    ).toBe("PASS");
  });

  it("--card: the card's GRPC interface is called", async () => {
    const run = await runGrpcTask(live().raw, "one-shot");
    const card = tempFile(
      "card.json",
      JSON.stringify({
        ...live().server.card,
        supportedInterfaces: [{ url: grpcUrl(), protocolBinding: "GRPC", protocolVersion: "1.0" }],
      }),
    );
    const file = out("task.binpb");
    const r = await fetchCli(["--card", card, "--task-id", run.taskId, "-o", file]);
    expect(r.stderr).toBe(
      `a2a-evidence: fetch: --card: calling supportedInterfaces[0] (GRPC 1.0) at ${grpcUrl()}/ over grpc\n`,
    );
    expect(r.code).toBe(0);
    expect(new Uint8Array(readFileSync(file))).toEqual(new Uint8Array(run.finalTask));
  });

  it("an unknown Task id is the server's gRPC status, one line, exit 2, nothing written", async () => {
    const file = out();
    const r = await fetchCli(["--url", grpcUrl(), "--binding", "grpc", "--task-id", "nope", "-o", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^a2a-evidence: fetch: NET_GRPC_STATUS: gRPC status 5 NOT_FOUND: .+\n$/);
    expect(existsSync(file)).toBe(false);
  });

  it("a server that is no gRPC server (HTTP/1.1), and an address nothing listens at: one line, exit 2", async () => {
    const http1 = await getTaskAt(live().server.baseUrl);
    expect(http1.code).toBe(2);
    expect(http1.stderr).toMatch(/^a2a-evidence: fetch: NET_IO: .+\n$/);
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const refused = await getTaskAt(`http://127.0.0.1:${port}`);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^a2a-evidence: fetch: NET_CONNECTION_REFUSED: connection refused by 127\.0\.0\.1:\d+\n$/,
    );
  });

  it("a gRPC target with a path, or another scheme, is a usage error, exit 2", async () => {
    const path = await getTaskAt(`${grpcUrl()}/a2a`);
    expect(path.code).toBe(2);
    expect(path.stderr).toMatch(/^a2a-evidence: fetch: --url: a gRPC target is host:port .+\n$/);
    const scheme = await getTaskAt(`grpc://${live().server.grpcAddress}`);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toBe("a2a-evidence: fetch: --url: only http and https URLs are fetched, not grpc:\n");
  });
});
