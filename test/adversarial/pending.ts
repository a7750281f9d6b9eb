/**
 * Adversarial cases the verifier does not pass yet, each with the contract rule it breaks. The
 * suite skips exactly these, with a SKIPPED line on stderr; remove a name once its fix lands and
 * the case runs again. pending.test.ts keeps the list honest: every name is a case, under its rule.
 */
export const PENDING_FIXES: Readonly<Record<string, string>> = {
  // §6: the default policy also needs a pinned producer key, an observed Task, and the negotiated level.
  "record signed by anyone, no trust file": "§6 (identityAuthorityBinding must be PASS by default)",
  "record signed by anyone, trust file without producers": "§6 (identityAuthorityBinding must be PASS by default)",
  "bare bundle without --task": "§6 (taskBinding must be PASS by default)",
  "observed history dropped": "§6 (taskBinding must be PASS by default)",
  "observed artifacts dropped": "§6 (taskBinding must be PASS by default)",
  "negotiated level not achieved": "§6 (the negotiated minimumEvidence replaces SIGNED_RECORD)",
  // §9.11: stub stamps carry no registration.
  "only stub stamps": "§9.11 (only stubs: externalRegistration NOT_PRESENT)",
  "EXTERNALLY_REGISTERED claimed over stub stamps": "§9.11 (a claim over stubs only is an overclaim)",
  // §9.12: only an Artifact whose parts are exactly the bundle is evidence.
  "content artifact under the evidence artifactId": "§9.12 (what counts as an evidence Artifact)",
  "content artifact under the extension URI": "§9.12 (what counts as an evidence Artifact)",
  "content artifact under the evidence media type": "§9.12 (what counts as an evidence Artifact)",
  "text part beside the bundle": "§9.12 (an extra part makes the evidence Artifact content)",
  "second evidence artifact with a disagreeing reference": "§9.12 (each evidence Artifact's reference is compared)",
  // §9.13: ambiguity is a FAIL; a missing member is a FAIL, never a skipped comparison.
  "forged artifact before the honest one under its artifactId": "§9.13 (artifacts.unambiguous)",
  "identical copy of an observed artifact": "§9.13 (artifacts.unambiguous)",
  "identical copy of a history message, adjacent": "§9.13 (transcript.unambiguous)",
  "identical copy of a history message, not adjacent": "§9.13 (transcript.unambiguous)",
  "history message under a reused messageId with other content": "§9.13 (transcript.unambiguous)",
  "payload artifact without name": "§9.13 (a payload artifact lacking name is a FAIL)",
  // §9.14: status.message is an observed Message.
  "status message no transcript entry covers": "§9.14 (transcript.statusMessage)",
  "status message with a transcript messageId and other content, history truncated": "§9.14 (transcript.statusMessage)",
  "status message disagreeing with its history copy": "§9.14 (transcript.statusMessage)",
  // §9.15: an absent string equals "".
  "observed Task without contextId": "§9.15 (absent contextId is a FAIL)",
  // §9.16: no silent override of what the caller observed.
  "first-task beside the capture's own first Task": "§9.16 (--first-task with an input's own first Task: exit 2)",
  "first-task beside the capture's own first Message": "§9.16 (--first-task with an input's own first Message: exit 2)",
  "task whose evidence artifact carries another record": "§9.16 (--task's Task is located like any input)",
  "task whose evidence artifact reference disagrees": "§9.16 (--task's evidence references are compared)",
  // §9.17: widening only excuses what narrowing explains.
  "tampered payload behind an unsafe integer": "§9.17 (a mismatch no narrowing explains is a FAIL)",
  "more than 256 widened candidates": "§9.17 (\"too many widened candidates\")",
  // §9.18: acceptance comes before acting.
  "acceptance on a terminal first Task": "§9.18 (acceptance.beforeWork)",
  "acceptance after an artifact was produced": "§9.18 (acceptance.beforeWork)",
  // §9.19: the operator is also read from keys, and is a JSON field on the check.
  "service signing with the producer key, labelled independent": "§9.19 (producer-operated from keys)",
  "service key that is another authority's producer key": "§9.19 (producer-operated from keys)",
  "independent service labelled in a field": "§9.19 (operator is a JSON field on the check)",
  // §9.20: bounded work, capped hints, a report a small multiple of the input.
  "same-named commitments against same-named artifacts": "§9.20 (no N×M comparison; report bounded)",
  "thousands of uncommitted artifacts": "§9.20 (hints capped)",
  "thousands of transcript entries the history does not show": "§9.20 (hints capped) and §6 (taskBinding must be PASS)",
  // §9.21: the CLI never dies of its own output.
  "reader that stops early": "§9.21 (EPIPE ends quietly with the decided exit code)",
  "standard output on a full disk": "§9.21 (a write error is one line on stderr, exit 2)",
};
