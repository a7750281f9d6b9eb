/**
 * The A2A v1.0 Agent Card as `a2a.proto` declares it (a2a-wire.md §7.4): every message of the card
 * tree, each field's JSON and proto names, its kind, and its presence —
 *
 *   required  the proto's REQUIRED annotation: kept by spec rule 1 even at its default;
 *   optional  the `optional` keyword (explicit presence): kept when set, even to its default;
 *   implicit  everything else: left out at its default. Message-typed fields always have presence.
 *
 * The canonicalizations in ./canonicalize.ts walk a card against this table; a member it does not
 * list is an unknown field (not covered by the SDKs' signatures).
 */

export type MessageName =
  | "AgentCard"
  | "AgentInterface"
  | "AgentProvider"
  | "AgentCapabilities"
  | "AgentExtension"
  | "AgentSkill"
  | "AgentCardSignature"
  | "SecurityRequirement"
  | "StringList"
  | "SecurityScheme"
  | "APIKeySecurityScheme"
  | "HTTPAuthSecurityScheme"
  | "OAuth2SecurityScheme"
  | "OpenIdConnectSecurityScheme"
  | "MutualTlsSecurityScheme"
  | "OAuthFlows"
  | "AuthorizationCodeOAuthFlow"
  | "ClientCredentialsOAuthFlow"
  | "ImplicitOAuthFlow"
  | "PasswordOAuthFlow"
  | "DeviceCodeOAuthFlow";

export type FieldKind =
  | { readonly t: "string" }
  | { readonly t: "bool" }
  | { readonly t: "strings" }
  | { readonly t: "message"; readonly m: MessageName }
  | { readonly t: "messages"; readonly m: MessageName }
  /** map<string, Message> */
  | { readonly t: "map"; readonly m: MessageName }
  /** map<string, string> */
  | { readonly t: "stringMap" }
  /** google.protobuf.Struct: any JSON object, numbers as doubles. */
  | { readonly t: "struct" };

export type Presence = "required" | "optional" | "implicit";

export interface Field {
  readonly json: string;
  readonly proto: string;
  readonly kind: FieldKind;
  readonly presence: Presence;
  /** The oneof the field belongs to: at most one member of it may be set. */
  readonly oneof?: string;
}

const snake = (camel: string) => camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

type Spec = readonly [json: string, kind: FieldKind, presence?: Presence, oneof?: string];

function fields(...specs: Spec[]): readonly Field[] {
  return specs.map(([json, kind, presence, oneof]) => ({
    json,
    proto: snake(json),
    kind,
    presence: presence ?? "implicit",
    ...(oneof ? { oneof } : {}),
  }));
}

const S = { t: "string" } as const;
const B = { t: "bool" } as const;
const SS = { t: "strings" } as const;
const STRUCT = { t: "struct" } as const;
const SMAP = { t: "stringMap" } as const;
const msg = (m: MessageName) => ({ t: "message", m }) as const;
const msgs = (m: MessageName) => ({ t: "messages", m }) as const;
const map = (m: MessageName) => ({ t: "map", m }) as const;

export const CARD_MODEL: Readonly<Record<MessageName, readonly Field[]>> = {
  AgentCard: fields(
    ["name", S, "required"],
    ["description", S, "required"],
    ["supportedInterfaces", msgs("AgentInterface"), "required"],
    ["provider", msg("AgentProvider")],
    ["version", S, "required"],
    ["documentationUrl", S, "optional"],
    ["capabilities", msg("AgentCapabilities"), "required"],
    ["securitySchemes", map("SecurityScheme")],
    ["securityRequirements", msgs("SecurityRequirement")],
    ["defaultInputModes", SS, "required"],
    ["defaultOutputModes", SS, "required"],
    ["skills", msgs("AgentSkill"), "required"],
    ["signatures", msgs("AgentCardSignature")],
    ["iconUrl", S, "optional"],
  ),
  AgentInterface: fields(
    ["url", S, "required"],
    ["protocolBinding", S, "required"],
    ["tenant", S],
    ["protocolVersion", S, "required"],
  ),
  AgentProvider: fields(["url", S, "required"], ["organization", S, "required"]),
  AgentCapabilities: fields(
    ["streaming", B, "optional"],
    ["pushNotifications", B, "optional"],
    ["extensions", msgs("AgentExtension")],
    ["extendedAgentCard", B, "optional"],
  ),
  AgentExtension: fields(["uri", S], ["description", S], ["required", B], ["params", STRUCT]),
  AgentSkill: fields(
    ["id", S, "required"],
    ["name", S, "required"],
    ["description", S, "required"],
    ["tags", SS, "required"],
    ["examples", SS],
    ["inputModes", SS],
    ["outputModes", SS],
    ["securityRequirements", msgs("SecurityRequirement")],
  ),
  AgentCardSignature: fields(["protected", S, "required"], ["signature", S, "required"], ["header", STRUCT]),
  SecurityRequirement: fields(["schemes", map("StringList")]),
  StringList: fields(["list", SS]),
  SecurityScheme: fields(
    ["apiKeySecurityScheme", msg("APIKeySecurityScheme"), "implicit", "scheme"],
    ["httpAuthSecurityScheme", msg("HTTPAuthSecurityScheme"), "implicit", "scheme"],
    ["oauth2SecurityScheme", msg("OAuth2SecurityScheme"), "implicit", "scheme"],
    ["openIdConnectSecurityScheme", msg("OpenIdConnectSecurityScheme"), "implicit", "scheme"],
    ["mtlsSecurityScheme", msg("MutualTlsSecurityScheme"), "implicit", "scheme"],
  ),
  APIKeySecurityScheme: fields(["description", S], ["location", S, "required"], ["name", S, "required"]),
  HTTPAuthSecurityScheme: fields(["description", S], ["scheme", S, "required"], ["bearerFormat", S]),
  OAuth2SecurityScheme: fields(["description", S], ["flows", msg("OAuthFlows"), "required"], ["oauth2MetadataUrl", S]),
  OpenIdConnectSecurityScheme: fields(["description", S], ["openIdConnectUrl", S, "required"]),
  MutualTlsSecurityScheme: fields(["description", S]),
  OAuthFlows: fields(
    ["authorizationCode", msg("AuthorizationCodeOAuthFlow"), "implicit", "flow"],
    ["clientCredentials", msg("ClientCredentialsOAuthFlow"), "implicit", "flow"],
    ["implicit", msg("ImplicitOAuthFlow"), "implicit", "flow"],
    ["password", msg("PasswordOAuthFlow"), "implicit", "flow"],
    ["deviceCode", msg("DeviceCodeOAuthFlow"), "implicit", "flow"],
  ),
  AuthorizationCodeOAuthFlow: fields(
    ["authorizationUrl", S, "required"],
    ["tokenUrl", S, "required"],
    ["refreshUrl", S],
    ["scopes", SMAP, "required"],
    ["pkceRequired", B],
  ),
  ClientCredentialsOAuthFlow: fields(["tokenUrl", S, "required"], ["refreshUrl", S], ["scopes", SMAP, "required"]),
  ImplicitOAuthFlow: fields(["authorizationUrl", S], ["refreshUrl", S], ["scopes", SMAP]),
  PasswordOAuthFlow: fields(["tokenUrl", S], ["refreshUrl", S], ["scopes", SMAP]),
  DeviceCodeOAuthFlow: fields(
    ["deviceAuthorizationUrl", S, "required"],
    ["tokenUrl", S, "required"],
    ["refreshUrl", S],
    ["scopes", SMAP, "required"],
  ),
};
