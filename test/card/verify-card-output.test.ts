/**
 * An Agent Card is the agent's text: its name, a signature's `kid` and `jku`, the member names it
 * carries. verify-card prints them to a terminal or a CI log, so they reach it with their control
 * characters, line breaks and bidirectional overrides made visible, as verify's reports do.
 */
import { describe, expect, it } from "vitest";
import { registerVerifyCardCommand } from "../../src/cli/verify-card.js";
import { runCommand } from "../helpers/commands.js";
import { tempFile } from "../helpers/cli.js";

const b64url = (s: string) => Buffer.from(s).toString("base64url");

// Not a valid signature: the card is INCONCLUSIVE (no key pinned), and every field is printed.
const CARD = {
  name: "Ledger\u001b[32m Agent\u202e",
  description: "d",
  version: "1",
  supportedInterfaces: [],
  capabilities: {},
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
  signatures: [
    {
      protected: b64url(
        JSON.stringify({
          alg: "ES256",
          typ: "JOSE",
          kid: "k\u001b]0;pwned\u0007\n::error::forged",
          jku: "https://x\u2028y",
        }),
      ),
      signature: "AAAA",
    },
  ],
};

describe("verify-card: the card's own text", () => {
  const cli = (args: string[]) => runCommand(registerVerifyCardCommand, ["verify-card", ...args]);

  it("text: no control character, line break or bidi override of the card reaches the output", async () => {
    const r = await cli([tempFile("card.json", JSON.stringify(CARD))]);
    expect(r.code).toBe(3);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("::"))).toEqual([]);
    expect(r.stdout).toContain("kid k\\u001b]0;pwned\\u0007\\u000a::error::forged");
    expect(r.stdout).toContain("jku https://x\\u2028y (reported, not fetched)");
    expect(lines[0]).toContain("Ledger\\u001b[32m Agent\\u202e");
  });

  it("json: the same characters written as \\uXXXX, parsing back to the card's strings", async () => {
    const r = await cli(["--format", "json", tempFile("card.json", JSON.stringify(CARD))]);
    expect(r.code).toBe(3);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    const report = JSON.parse(r.stdout);
    expect(report.name).toBe(CARD.name);
    expect(report.signatures[0].jku).toBe("https://x\u2028y");
  });
});

describe("verify-card: a single-valued option given twice is a usage error (exit 2)", () => {
  const cli = (args: string[]) => runCommand(registerVerifyCardCommand, ["verify-card", ...args]);
  it.each([
    ["--trust", "--trust <file>"],
    ["--card-url", "--card-url <url>"],
    ["--output", "-o, --output <file>"],
  ])("%s", async (flag, shown) => {
    const card = tempFile("card.json", JSON.stringify(CARD));
    const r = await cli([flag, "/dev/null", flag, "/dev/null", card]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^error: option '${shown}' argument '/dev/null' is invalid\\. given twice`));
  });
});
