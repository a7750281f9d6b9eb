import { describe, expect, it } from "vitest";
import { renderJunit } from "../../src/report/junit.js";
import { EXIT_MEANING } from "../../src/report/explain.js";
import { verify } from "../../src/verify.js";
import { PROPERTY_NAMES, isFailedInput, type PropertyName } from "../../src/report/model.js";
import { oneLine } from "../../src/report/untrusted.js";
import {
  HOSTILE,
  PLAIN,
  VECTOR_NAMES,
  PENDING_VECTOR_NAMES,
  REQUIRED_BY_DEFAULT,
  VERBOSE,
  bareBundle,
  decidingId,
  eachVector,
  hostileReport,
  mixedReport,
  onlyVerified,
  trustErrorReport,
  vectorFile,
  vectorReport,
} from "./reports.js";
import { HAS_XMLLINT, outText, parseJunit, xmllintSchema, type ParsedCase, type ParsedSuite } from "./xml.js";

function cases(suite: ParsedSuite | undefined): Map<string, ParsedCase> {
  if (!suite) throw new Error("no testsuite");
  return new Map(suite.testcase.map((c) => [c["@_name"], c]));
}

const XML_FORBIDDEN =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

describe("junit: the shipped vectors", () => {
  eachVector(({ source, expected, report, input }) => {
    const xml = renderJunit(report, PLAIN);
    const doc = parseJunit(xml);
    const suites = doc.testsuites.testsuite ?? [];
    expect(suites).toHaveLength(1);
    const suite = suites[0] as ParsedSuite;
    expect(suite["@_name"]).toBe(source);
    expect(suite.testcase.map((c) => c["@_name"])).toEqual([...PROPERTY_NAMES, "policy"]);
    const byName = cases(suite);

    for (const p of PROPERTY_NAMES) {
      const c = byName.get(p) as ParsedCase;
      expect(c["@_classname"]).toBe(source);
      const state = expected.properties[p];
      if (state === "PASS") {
        expect(c.failure ?? c.skipped ?? c.error, p).toBeUndefined();
        expect(outText(c["system-out"]?.[0])).toBe(`PASS: ${input.properties[p].detail}`);
      } else if (state === "FAIL") {
        // The deciding check's id is the failure's type and leads its message.
        const id = decidingId(input, p) as string;
        expect(c.failure?.[0]?.["@_type"], p).toBe(id);
        expect(c.failure?.[0]?.["@_message"]).toBe(`${id}: ${input.properties[p].detail}`);
        expect(c.failure?.[0]?.["#text"]).toContain(`FAIL ${id}`);
      } else if (REQUIRED_BY_DEFAULT.includes(p)) {
        // Required by the default policy and not PASS: a failure that names the reason, whatever its state.
        const id = decidingId(input, p) as string;
        expect(c.failure?.[0]?.["@_type"], p).toBe("POLICY_NOT_MET");
        expect(c.failure?.[0]?.["@_message"]).toBe(
          `required, but ${state}: ${input.properties[p].detail} [check ${id}]`,
        );
      } else {
        expect(c.failure, `${p} is not required`).toBeUndefined();
        expect(c.skipped?.[0]?.["@_type"], p).toBe(state);
        expect(c.skipped?.[0]?.["@_message"]).toBe(`${state}: ${input.properties[p].detail}`);
      }
    }

    // A finding counts once: the policy testcase fails only for what no property testcase carries
    // (here, only the evidence level below the minimum can be such a reason).
    const policy = byName.get("policy") as ParsedCase;
    const levelReasons = input.reasons.filter((r) => r.startsWith("evidence level "));
    const failed = (p: PropertyName) =>
      expected.properties[p] === "FAIL" || (expected.properties[p] !== "PASS" && REQUIRED_BY_DEFAULT.includes(p));
    const policyFails = expected.exitCode === 3 && levelReasons.length > 0;
    if (expected.exitCode === 0) {
      expect(policy.failure).toBeUndefined();
      expect(outText(policy["system-out"]?.[0])).toMatch(/^exit 0: the policy holds\n/);
    } else if (policyFails) {
      expect(policy.failure?.[0]?.["@_type"]).toBe("POLICY_NOT_MET");
      expect(policy.failure?.[0]?.["@_message"]).toBe(`exit 3: ${EXIT_MEANING[3]}: ${levelReasons.join("; ")}`);
    } else {
      expect(input.reasons.length).toBeGreaterThan(0);
      expect(policy.failure).toBeUndefined();
      expect(outText(policy["system-out"]?.[0])).toContain(
        `exit ${expected.exitCode}: ${EXIT_MEANING[expected.exitCode]}: see the failing testcases\n${input.reasons.join("\n")}`,
      );
    }

    // A required property that is not PASS is a failure too, never a skip; and an input whose exit
    // is not 0 always has a failure (the report never lets through what the exit code stops).
    const failures = PROPERTY_NAMES.filter(failed).length + (policyFails ? 1 : 0);
    const skipped = PROPERTY_NAMES.filter((p) => expected.properties[p] !== "PASS" && !failed(p)).length;
    expect(failures > 0).toBe(expected.exitCode !== 0);
    expect([suite["@_tests"], suite["@_failures"], suite["@_errors"], suite["@_skipped"]]).toEqual([
      String(PROPERTY_NAMES.length + 1),
      String(failures),
      "0",
      String(skipped),
    ]);
    expect([doc.testsuites["@_tests"], doc.testsuites["@_failures"], doc.testsuites["@_errors"]]).toEqual([
      String(PROPERTY_NAMES.length + 1),
      String(failures),
      "0",
    ]);
    const props = Object.fromEntries((suite.properties?.property ?? []).map((x) => [x["@_name"], x["@_value"]]));
    expect(props["evidenceLevel.achieved"]).toBe(expected.evidenceLevel);
    expect(props.exitCode).toBe(String(expected.exitCode));
  });

  it.skipIf(!HAS_XMLLINT)(
    "every vector's report, plain and verbose, is valid against the JUnit schema (xmllint)",
    () => {
      const docs = VECTOR_NAMES.flatMap((n) => [
        renderJunit(vectorReport(n), PLAIN),
        renderJunit(vectorReport(n), VERBOSE),
      ]);
      const r = xmllintSchema(docs);
      expect(r.output).not.toMatch(/fails to validate|error/i);
      expect(r.status).toBe(0);
      expect(r.output.match(/ validates/g)).toHaveLength(docs.length);
    },
  );
});

describe("junit: a Task that has not ended", () => {
  it.each(PENDING_VECTOR_NAMES)(
    "%s is one failed testcase of type INPUT_EVIDENCE_PENDING, exit 3, never skipped",
    (name) => {
      const suites = parseJunit(renderJunit(vectorReport(name), PLAIN)).testsuites.testsuite ?? [];
      const suite = suites[0] as ParsedSuite;
      const props = Object.fromEntries((suite.properties?.property ?? []).map((x) => [x["@_name"], x["@_value"]]));
      expect(props.exitCode).toBe("3");
      expect(suite.testcase).toHaveLength(1);
      const c = suite.testcase[0] as ParsedCase;
      expect([
        c.error,
        c.skipped,
        c.failure?.[0]?.["@_type"],
        c.failure?.[0]?.["@_message"]?.startsWith("INPUT_EVIDENCE_PENDING: the Task is in TASK_STATE_"),
      ]).toEqual([undefined, undefined, "INPUT_EVIDENCE_PENDING", true]);
      expect([suite["@_tests"], suite["@_failures"], suite["@_errors"], suite["@_skipped"]]).toEqual([
        "1",
        "1",
        "0",
        "0",
      ]);
    },
  );
});

describe("junit: policy", () => {
  it("a --require'd property that is not PASS is a POLICY_NOT_MET failure, counted once: the policy testcase states exit 3", () => {
    const report = vectorReport("valid-minimal", { require: ["continuity", "negotiation", "contentBinding"] });
    const input = onlyVerified(report);
    const doc = parseJunit(renderJunit(report, PLAIN));
    const byName = cases(doc.testsuites.testsuite?.[0]);
    expect(byName.get("continuity")?.failure?.[0]?.["@_type"]).toBe("POLICY_NOT_MET");
    expect(byName.get("continuity")?.failure?.[0]?.["@_message"]).toMatch(
      /^required, but NOT_PRESENT: no continuity witness cosignature is carried.* \[check witness\.assertion\]$/,
    );
    expect(byName.get("negotiation")?.failure?.[0]?.["@_message"]).toMatch(/^required, but INCONCLUSIVE: /);
    expect(byName.get("contentBinding")?.failure).toBeUndefined();
    // Not required: still skipped.
    expect(byName.get("captureCoverage")?.skipped?.[0]?.["@_type"]).toBe("INCONCLUSIVE");
    expect(byName.get("policy")?.failure).toBeUndefined();
    expect(input.reasons).toHaveLength(2);
    expect(outText(byName.get("policy")?.["system-out"]?.[0])).toContain(
      `exit 3: ${EXIT_MEANING[3]}: see the failing testcases\n${input.reasons.join("\n")}`,
    );
    expect(doc.testsuites["@_failures"]).toBe("2");
  });

  it("one FAIL is one failure, not two: the policy testcase does not repeat it", () => {
    const report = vectorReport("neg-producerSignature-signature-byte", { minEvidence: "NONE" });
    expect(report.policy.exitCode).toBe(1);
    const doc = parseJunit(renderJunit(report, PLAIN));
    const failing = (doc.testsuites.testsuite?.[0]?.testcase ?? []).filter((c) => c.failure !== undefined);
    expect(failing.map((c) => [c["@_name"], c.failure?.[0]?.["@_type"]])).toEqual([
      ["producerSignature", decidingId(onlyVerified(report), "producerSignature")],
    ]);
    expect(doc.testsuites["@_failures"]).toBe("1");
  });

  it("a report whose exit code no testcase explains fails the policy testcase with every reason", () => {
    const report = vectorReport("valid-minimal");
    const odd = { ...report, inputs: [{ ...onlyVerified(report), exitCode: 1 as const, reasons: ["said elsewhere"] }] };
    const policy = cases(parseJunit(renderJunit(odd, PLAIN)).testsuites.testsuite?.[0]).get("policy")?.failure?.[0];
    expect([policy?.["@_type"], policy?.["@_message"]]).toEqual(["FAIL", `exit 1: ${EXIT_MEANING[1]}: said elsewhere`]);
  });

  it("the default policy's requirements count: a bare bundle without the observed Task fails taskBinding as required", () => {
    const request = {
      inputs: [{ source: "bundle.json", data: bareBundle("valid-data-part") }],
      trust: vectorFile("valid-data-part", "trust.json"),
    };
    const byName = cases(parseJunit(renderJunit(verify(request), PLAIN)).testsuites.testsuite?.[0]);
    expect(byName.get("taskBinding")?.failure?.[0]?.["@_message"]).toMatch(/^required, but NOT_CHECKED: /);
    expect(outText(byName.get("policy")?.["system-out"]?.[0])).toContain("\nno observed Task: pass --task\n");
    // --min-evidence NONE drops the default requirements: NOT_CHECKED is then only skipped.
    const none = cases(
      parseJunit(renderJunit(verify({ ...request, minEvidence: "NONE" }), PLAIN)).testsuites.testsuite?.[0],
    );
    expect(none.get("taskBinding")?.skipped?.[0]?.["@_type"]).toBe("NOT_CHECKED");
    expect(none.get("policy")?.failure).toBeUndefined();
  });

  it("an evidence level below --min-evidence fails the policy testcase with that reason", () => {
    const report = vectorReport("valid-signed-record-only", { minEvidence: "EXTERNALLY_REGISTERED" });
    const suite = parseJunit(renderJunit(report, PLAIN)).testsuites.testsuite?.[0];
    const policy = cases(suite).get("policy")?.failure?.[0];
    expect(policy?.["@_type"]).toBe("POLICY_NOT_MET");
    expect(policy?.["@_message"]).toMatch(
      /: evidence level SIGNED_RECORD is below EXTERNALLY_REGISTERED \(--min-evidence\)$/,
    );
    const props = Object.fromEntries((suite?.properties?.property ?? []).map((x) => [x["@_name"], x["@_value"]]));
    expect(props["policy.minEvidence"]).toBe("EXTERNALLY_REGISTERED");
    expect(props["policy.required"]).toBe("taskBinding, identityAuthorityBinding");
  });

  it("a report that states no reasons still says what its exit code means", () => {
    const report = vectorReport("valid-minimal", { minEvidence: "NONE" });
    const bare = { ...report, inputs: [{ ...onlyVerified(report), exitCode: 3 as const, reasons: [] }] };
    const policy = cases(parseJunit(renderJunit(bare, PLAIN)).testsuites.testsuite?.[0]).get("policy")?.failure?.[0];
    expect(policy?.["@_type"]).toBe("POLICY_NOT_MET");
    expect(policy?.["@_message"]).toBe(`exit 3: ${EXIT_MEANING[3]}: ${EXIT_MEANING[3]}`);
  });
});

describe("junit: inputs that were not verified", () => {
  it("an unreadable input and an input that is not JSON are suites with one errored testcase", () => {
    const report = mixedReport();
    const xml = renderJunit(report, PLAIN);
    const suites = parseJunit(xml).testsuites.testsuite ?? [];
    expect(suites.map((s) => s["@_name"])).toEqual([
      "vectors/valid-minimal/input.json",
      "missing.json",
      "garbage.json",
    ]);
    for (const s of suites.slice(1)) {
      expect([s["@_tests"], s["@_failures"], s["@_errors"]]).toEqual(["1", "0", "1"]);
      const c = s.testcase[0] as ParsedCase;
      expect(c["@_name"]).toBe("input");
      const failed = report.inputs.find((i) => i.source === s["@_name"]);
      if (!failed || !isFailedInput(failed)) throw new Error("expected a failed input");
      expect(c.error?.[0]?.["@_type"]).toBe(failed.error.code);
      expect(c.error?.[0]?.["@_message"]).toBe(
        `${failed.error.code}: ${failed.error.message}${failed.error.path ? ` at ${failed.error.path}` : ""}`,
      );
    }
    expect(parseJunit(xml).testsuites["@_errors"]).toBe("2");
    if (HAS_XMLLINT) expect(xmllintSchema([xml]).status).toBe(0);
  });

  it("a run that verified nothing (invalid trust file) is one errored testcase, never zero tests", () => {
    const report = trustErrorReport();
    expect(report.inputs).toHaveLength(0);
    const xml = renderJunit(report, PLAIN);
    const doc = parseJunit(xml);
    expect(doc.testsuites["@_tests"]).toBe("1");
    expect(doc.testsuites["@_errors"]).toBe("1");
    const c = doc.testsuites.testsuite?.[0]?.testcase[0];
    expect(c?.["@_name"]).toBe("run");
    expect(c?.error?.[0]?.["@_type"]).toBe(report.error?.code);
    if (HAS_XMLLINT) expect(xmllintSchema([xml]).status).toBe(0);
  });
});

describe("junit: determinism and verbosity", () => {
  it("the same input gives the same bytes", () => {
    for (const name of ["valid-rich", "neg-checkpointSignature-timestamp"]) {
      expect(renderJunit(vectorReport(name), VERBOSE)).toBe(renderJunit(vectorReport(name), VERBOSE));
      expect(renderJunit(vectorReport(name), PLAIN)).toBe(renderJunit(vectorReport(name), PLAIN));
    }
    expect(renderJunit(mixedReport(), PLAIN)).toBe(renderJunit(mixedReport(), PLAIN));
  });

  it("verbose lists every check with its values in the testcase output", () => {
    const report = vectorReport("valid-rich");
    const input = onlyVerified(report);
    const byName = cases(parseJunit(renderJunit(report, VERBOSE)).testsuites.testsuite?.[0]);
    for (const p of PROPERTY_NAMES) {
      const out = outText(byName.get(p)?.["system-out"]?.[0]);
      for (const c of input.properties[p].checks) expect(out).toContain(`${c.state} ${c.id}`);
    }
    expect(outText(byName.get("contentBinding")?.["system-out"]?.[0])).toContain(`    recomputed: ${input.evidenceId}`);
    const plain = outText(
      cases(parseJunit(renderJunit(report, PLAIN)).testsuites.testsuite?.[0]).get("contentBinding")?.[
        "system-out"
      ]?.[0],
    );
    expect(plain).not.toContain("evidenceId.recompute");
  });
});

describe("junit: hostile strings", () => {
  const report = hostileReport(["continuity"]);
  const xml = renderJunit(report, VERBOSE);

  it("emits no character XML 1.0 forbids, and stays well-formed with the same tree", () => {
    expect(xml).not.toMatch(XML_FORBIDDEN);
    const doc = parseJunit(xml);
    const suites = doc.testsuites.testsuite ?? [];
    expect(suites).toHaveLength(3);
    expect(suites.map((s) => s.testcase.length)).toEqual([1, PROPERTY_NAMES.length + 1, 1]);
    expect(JSON.stringify(doc)).not.toMatch(/"script"|"img"/);
  });

  it("every attribute and text round-trips to the string made one line, its disguising characters visible", () => {
    const shown = oneLine(HOSTILE);
    expect(shown).toContain("\\u001b[31m");
    expect(shown).toContain("\\u202eLIAF");
    expect(shown).toContain("\\u000a::error::owned");
    expect(shown).not.toMatch(/[\t\n]| {3}/);
    // No line of the document, nor of any text in it, starts with what the input wrote after a line break.
    const texts = JSON.stringify(parseJunit(xml));
    expect(xml.split("\n").some((l) => /^\s*::/.test(l))).toBe(false);
    expect(texts).not.toMatch(/\\n::|\\r::/);
    const doc = parseJunit(xml);
    const suite = doc.testsuites.testsuite?.[1] as ParsedSuite;
    expect(suite["@_name"]).toBe(`task${shown}.json`);
    const tb = cases(suite).get("taskBinding")?.failure?.[0];
    expect(tb?.["@_message"]).toBe(`artifact.binding${shown}: ${shown}`);
    expect(tb?.["#text"]).toContain(`key${shown}: ${shown}`);
    expect(tb?.["#text"]).toContain(`(operator: ${shown})`);
    expect(outText(cases(suite).get("policy")?.["system-out"]?.[0])).toContain(`\n${shown}\n`);
    const run = doc.testsuites.testsuite?.[0]?.testcase[0]?.error?.[0];
    expect(run?.["@_message"]).toBe(`TRUST_SCHEMA: ${shown} at ${shown}`);
  });

  it.skipIf(!HAS_XMLLINT)("passes libxml2's strict parser and the JUnit schema", () => {
    const r = xmllintSchema([xml, renderJunit(report, PLAIN)]);
    expect(r.output).not.toMatch(/parser error|fails to validate/);
    expect(r.status).toBe(0);
  });
});
