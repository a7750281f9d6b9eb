/**
 * Constants of the PEAC A2A Receipt Profile and of Wire 0.2 (interaction-record+jwt), as PEAC's
 * code fixes them (peacprotocol/peac: packages/kernel, packages/schema, packages/mappings/a2a).
 */

/** The metadata key of the PEAC A2A Receipt Profile; matched exactly, never by prefix. */
export const PEAC_EXTENSION_URI = "https://www.peacprotocol.org/ext/traceability/v1";

/** CARRIER_TRANSPORT_LIMITS.a2a: the largest receipt an A2A carrier may hold, in bytes. */
export const A2A_CARRIER_MAX_BYTES = 65_536;

/** VERIFIER_LIMITS.maxReceiptBytes: no compact JWS longer than this is parsed at all. */
export const MAX_RECEIPT_BYTES = 262_144;

/** The Wire 0.2 `typ`, in its compact form and the media-type form PEAC also accepts. */
export const WIRE_02_TYP = "interaction-record+jwt";
export const WIRE_02_TYP_MEDIA = "application/interaction-record+jwt";
/** Wire 0.1's `typ`: frozen, refused by every Wire 0.2 surface. */
export const WIRE_01_TYP = "peac-receipt/0.1";

/** verifyLocal's default clock skew for iat and occurred_at, in seconds. */
export const CLOCK_SKEW_SECONDS = 300;

/** kid: a well-formed Unicode string of 1 to 256 UTF-8 bytes (crypto/src/kid.ts). */
export const MAX_KID_UTF8_BYTES = 256;

const P = "org.peacprotocol/";

/**
 * TYPE_TO_EXTENSION_MAP (registries.generated.ts, 61 receipt types): the extension group a
 * registered type must carry in strict mode. Every registered receipt type has one, so this is
 * also the registry `type_unregistered` is judged against.
 */
const GROUP_TYPES: ReadonlyArray<readonly [string, readonly string[]]> = [
  [
    "a2a-handoff",
    [
      "a2a-agent-card-observation",
      "a2a-human-approved",
      "a2a-human-rejected",
      "a2a-human-review-requested",
      "a2a-task-accepted",
      "a2a-task-completed",
      "a2a-task-failed",
      "a2a-task-rejected",
      "a2a-task-state-changed",
      "a2a-task-submitted",
    ],
  ],
  ["access", ["access-decision"]],
  [
    "agent-action",
    [
      "agent-action-approved-observed",
      "agent-action-cancelled-observed",
      "agent-action-delegated-observed",
      "agent-action-denied-observed",
      "agent-action-invoked-observed",
      "agent-action-timed-out-observed",
    ],
  ],
  ["attribution", ["attribution-event"]],
  ["cli-execution", ["cli-command-execution"]],
  ["commerce", ["payment"]],
  [
    "commerce-mandate",
    [
      "commerce-authorization-observed",
      "commerce-budget-observed",
      "commerce-capture-observed",
      "commerce-mandate-observed",
      "commerce-refund-observed",
      "commerce-settlement-observed",
      "commerce-void-observed",
    ],
  ],
  ["compliance", ["compliance-check"]],
  ["consent", ["consent-record"]],
  [
    "gateway-export",
    [
      "gateway-facilitator-timeout-observed",
      "gateway-payment-submitted-observed",
      "gateway-settlement-confirmed-late-observed",
      "gateway-settlement-confirmed-observed",
      "gateway-settlement-failed-observed",
      "gateway-settlement-failed-orphaned-observed",
      "gateway-settlement-polling-observed",
      "gateway-settlement-unresolved-observed",
    ],
  ],
  ["identity", ["identity-attestation"]],
  [
    "lifecycle-observation",
    [
      "lifecycle-approval-denied",
      "lifecycle-approval-granted",
      "lifecycle-approval-requested",
      "lifecycle-evaluation-completed",
      "lifecycle-evaluation-started",
      "lifecycle-experiment-assigned",
      "lifecycle-experiment-result",
      "lifecycle-mode-observed",
      "lifecycle-workflow-transition",
    ],
  ],
  ["privacy", ["privacy-signal"]],
  ["provenance", ["provenance-record"]],
  [
    "provisioning-lifecycle",
    [
      "provisioning-account-observed",
      "provisioning-budget-observed",
      "provisioning-catalog-observed",
      "provisioning-credential-observed",
      "provisioning-deployment-observed",
      "provisioning-domain-observed",
      "provisioning-payment-authorization-observed",
      "provisioning-provider-link-observed",
      "provisioning-resource-observed",
      "provisioning-subscription-observed",
    ],
  ],
  ["purpose", ["purpose-declaration"]],
  ["safety", ["safety-review"]],
];

export const TYPE_TO_EXTENSION: ReadonlyMap<string, string> = new Map(
  GROUP_TYPES.flatMap(([group, types]) => types.map((t) => [P + t, P + group] as const)),
);

/** EXTENSION_GROUPS: the 19 registered extension group keys (others draw `unknown_extension_preserved`). */
export const REGISTERED_EXTENSION_GROUPS: ReadonlySet<string> = new Set(
  [
    "a2a-handoff",
    "access",
    "agent-action",
    "attribution",
    "challenge",
    "cli-execution",
    "commerce",
    "commerce-mandate",
    "compliance",
    "consent",
    "correlation",
    "gateway-export",
    "identity",
    "lifecycle-observation",
    "privacy",
    "provenance",
    "provisioning-lifecycle",
    "purpose",
    "safety",
  ].map((g) => P + g),
);
