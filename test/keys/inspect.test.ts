/**
 * `inspect` and the HTML report show, for each signature by a key with a window, the window and
 * the trusted time it was judged at (contract §5.1).
 */
import { describe, expect, it } from "vitest";
import { inspect, type Explanation } from "../../src/inspect/index.js";
import { renderExplanationText } from "../../src/inspect/text.js";
import { renderHtml } from "../../src/report/html.js";
import { verify } from "../../src/verify.js";
import { PLAIN as RENDER } from "../report/reports.js";
import { CURRENT_COSIGNED, PLAIN, WITNESSED, build, producerWindow, trustOf, type Trust } from "./harness.js";

const OPTIONS = { bytes: false, all: false };

function explained(e: ReturnType<typeof build>, trust: unknown, at?: string): Explanation {
  const r = inspect({ source: "test", data: e.input, trust: trust as never, ...(at ? { at } : {}) }, OPTIONS);
  if (!r.ok) throw new Error(r.detail);
  return r.value;
}

const revokeWitness = (t: Trust) => {
  const w = t.witnesses?.[0] as { keys: unknown[] };
  w.keys = [{ key: w.keys[0], validUntil: "2027-01-01T00:00:00Z" }];
};

describe("inspect", () => {
  it("shows each windowed key's window and the trusted time its signature is judged at", () => {
    const e = build(WITNESSED);
    const trust = trustOf(e, (t) => {
      producerWindow({ revokedAt: "2026-10-01T10:00:00Z", reason: "stolen" })(t);
      revokeWitness(t);
    });
    const x = explained(e, trust);
    const capsule = x.keys.keys.items.find((k) => k.role.startsWith("the capsule's key_id"));
    expect(capsule?.window).toBe("revoked at 2026-10-01T10:00:00Z (stolen)");
    expect(capsule?.judgedAt).toMatch(new RegExp(`^${CURRENT_COSIGNED} \\(cosignature of independent witness`));
    const prior = x.keys.keys.items.find((k) => k.role.startsWith("the prior checkpoint's"));
    expect(prior?.judgedAt).toMatch(/^2026-10-01T09:00:10Z \(cosignature .* over the prior checkpoint/);
    const witness = x.keys.keys.items.find((k) => k.role.startsWith("witness "));
    expect(witness?.window).toBe("valid until 2027-01-01T00:00:00Z");
    expect(witness?.judgedAt).toMatch(/own timestamp, bounded by --at/);
    const text = renderExplanationText(x);
    expect(text).toContain(`window: revoked at 2026-10-01T10:00:00Z (stolen); judged at ${CURRENT_COSIGNED}`);
  });

  it("without proof of time says so, and uses --at when given", () => {
    const e = build(PLAIN);
    const trust = trustOf(e, producerWindow({ validUntil: "2026-10-01T12:00:00Z" }));
    const none = explained(e, trust).keys.keys.items.find((k) => k.role.startsWith("the capsule's key_id"));
    expect(none?.judgedAt).toMatch(/^no trusted time/);
    const at = explained(e, trust, "2026-10-01T11:00:00Z").keys.keys.items.find((k) =>
      k.role.startsWith("the capsule's key_id"),
    );
    expect(at?.judgedAt).toBe("2026-10-01T11:00:00Z (--at)");
  });

  it("shows the window another entry gives the same key: the one the report judges by", () => {
    const e = build(PLAIN);
    const trust = trustOf(e, (t) => {
      const key = (t.producers[0] as { keys: unknown[] }).keys[0];
      t.producers.push({ authority: "ledger-agent.example", keys: [{ key, revokedAt: "2026-10-01T10:00:00Z" }] });
      const s = t.transparencyServices[0] as { keys: unknown[] };
      t.transparencyServices.push({
        url: "https://ts-mirror.a2a-evidence.example",
        keys: [{ key: s.keys[0], revokedAt: "2027-01-01T00:00:00Z" }],
        operator: "independent",
      });
    });
    const items = explained(e, trust).keys.keys.items;
    const capsule = items.find((k) => k.role.startsWith("the capsule's key_id"));
    expect(capsule?.window).toBe("revoked at 2026-10-01T10:00:00Z");
    const service = items.find((k) => k.role.startsWith("Transparency Service "));
    expect(service?.window).toBe("revoked at 2027-01-01T00:00:00Z");
  });

  it("does not show another entry's planned life of the same key: only its revocation is the key's", () => {
    const e = build(PLAIN);
    const trust = trustOf(e, (t) => {
      const s = t.transparencyServices[0] as { keys: unknown[] };
      t.transparencyServices.push({
        url: "https://ts-mirror.a2a-evidence.example",
        keys: [{ key: s.keys[0], validUntil: "2027-01-01T00:00:00Z" }],
        operator: "independent",
      });
    });
    const service = explained(e, trust).keys.keys.items.find((k) => k.role.startsWith("Transparency Service "));
    expect(service?.window).toBeUndefined();
  });

  it("a key without a window gets neither field", () => {
    const e = build(WITNESSED);
    for (const k of explained(e, e.trust).keys.keys.items) {
      expect(k.window).toBeUndefined();
      expect(k.judgedAt).toBeUndefined();
    }
  });
});

describe("the HTML report", () => {
  it("lists the key.window check with the window, the time used and its source", () => {
    const e = build(WITNESSED);
    const report = verify({
      inputs: [{ source: "test", data: e.input }],
      trust: trustOf(e, producerWindow({ revokedAt: "2026-10-01T10:00:00Z" })),
    });
    const html = renderHtml(report, RENDER);
    expect(html).toContain("<code>key.window</code>");
    expect(html).toContain("<dt>revokedAt</dt><dd><code>2026-10-01T10:00:00Z</code></dd>");
    expect(html).toContain(`<dt>trustedTime</dt><dd><code>${CURRENT_COSIGNED}</code></dd>`);
    expect(html).toMatch(/<dt>timeSource<\/dt><dd><code>cosignature of independent witness/);
  });
});
