/**
 * The trust file schema, as a value: the verification library stays free of file reads. A test
 * keeps it identical to schemas/trust-config.schema.json, which is what users and editors see.
 */
/** The members a key's window adds to the object that holds the key (contract §5.1). */
const WINDOW_MEMBERS = {
  validFrom: { $ref: "#/$defs/time" },
  validUntil: { $ref: "#/$defs/time" },
  revokedAt: { $ref: "#/$defs/time" },
  reason: { type: "string" },
} as const;

export const TRUST_CONFIG_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: "https://a2a-evidence.dev/schemas/trust-config.schema.json",
  title: "a2a-evidence trust configuration",
  description:
    "Who the caller trusts: producer keys per authority, Transparency Service keys per URL, continuity witnesses and the policy that counts them. Trust never comes from the input being verified. Either the native shape (version 1) or the reference implementation's {authorizedSigners, tsPubkeysB64}.",
  oneOf: [
    {
      $ref: "#/$defs/native",
    },
    {
      $ref: "#/$defs/reference",
    },
  ],
  $defs: {
    native: {
      type: "object",
      required: ["version"],
      additionalProperties: false,
      properties: {
        $schema: {
          type: "string",
        },
        version: {
          const: 1,
        },
        producers: {
          type: "array",
          items: {
            type: "object",
            required: ["authority", "keys"],
            additionalProperties: false,
            properties: {
              authority: {
                type: "string",
                minLength: 1,
              },
              keys: {
                $ref: "#/$defs/keys",
              },
            },
          },
        },
        transparencyServices: {
          type: "array",
          items: {
            type: "object",
            required: ["url", "keys", "operator"],
            additionalProperties: false,
            properties: {
              url: {
                type: "string",
                minLength: 1,
              },
              keys: {
                $ref: "#/$defs/keys",
              },
              operator: {
                $ref: "#/$defs/operator",
              },
            },
          },
        },
        witnesses: {
          description: "Continuity witnesses: C2SP cosignature/v1 signers of the CLL note (contract §9.22).",
          type: "array",
          items: {
            type: "object",
            required: ["name", "keys", "operator", "statements"],
            additionalProperties: false,
            properties: {
              id: {
                description: "A label for reports; the name is used without it.",
                type: "string",
                minLength: 1,
              },
              name: {
                description: 'The note key name its cosignature lines carry: no white space, no "+".',
                type: "string",
                minLength: 1,
              },
              keys: {
                type: "array",
                minItems: 1,
                items: {
                  if: {
                    type: "object",
                  },
                  then: {
                    $ref: "#/$defs/witnessKeyOverTime",
                  },
                  else: {
                    $ref: "#/$defs/witnessKey",
                  },
                },
              },
              operator: {
                $ref: "#/$defs/operator",
              },
              operatorId: {
                description: "Who runs it; the quorum counts distinct operators. Default: the name.",
                type: "string",
                minLength: 1,
              },
              statements: {
                description: "Statements bound to its keys; only cll-mmr-consistency/v1 makes it count.",
                type: "array",
                uniqueItems: true,
                items: {
                  type: "string",
                  minLength: 1,
                },
              },
            },
          },
        },
        continuityPolicy: {
          description:
            "How many witnesses continuity needs. Defaults: quorum 1, requirePriorCosigned true, acceptGenesis false, maxFutureSkewSeconds 300.",
          type: "object",
          additionalProperties: false,
          properties: {
            quorum: {
              type: "integer",
              minimum: 1,
              maximum: 64,
            },
            requirePriorCosigned: {
              type: "boolean",
            },
            acceptGenesis: {
              type: "boolean",
            },
            maxFutureSkewSeconds: {
              type: "integer",
              minimum: 0,
              maximum: 31536000,
            },
          },
        },
        agents: {
          description:
            "Agent Card signing keys (verify-card): for each agent, named by its card URL or its name, the keys that may sign its card.",
          type: "array",
          items: {
            type: "object",
            required: ["card", "keys"],
            additionalProperties: false,
            properties: {
              card: {
                type: "string",
                minLength: 1,
              },
              keys: {
                $ref: "#/$defs/agentKeys",
              },
            },
          },
        },
        peacIssuers: {
          type: "array",
          description:
            "PEAC receipt issuers (Wire 0.2 interaction records): the Ed25519 keys each issuer signs with, by kid (each with an optional window, contract §5.1), and the kids it has revoked.",
          items: {
            type: "object",
            required: ["iss", "keys"],
            additionalProperties: false,
            properties: {
              iss: {
                type: "string",
                minLength: 1,
                description: "The issuer exactly as receipts carry it: a canonical https origin or a did: identifier.",
              },
              keys: {
                type: "array",
                items: {
                  type: "object",
                  required: ["kid", "key"],
                  additionalProperties: false,
                  properties: {
                    kid: {
                      type: "string",
                      minLength: 1,
                    },
                    key: {
                      $ref: "#/$defs/key",
                    },
                    ...WINDOW_MEMBERS,
                  },
                },
              },
              revokedKids: {
                type: "array",
                items: {
                  type: "string",
                  minLength: 1,
                },
              },
            },
          },
        },
      },
    },
    reference: {
      type: "object",
      additionalProperties: false,
      minProperties: 1,
      properties: {
        authorizedSigners: {
          type: "object",
          additionalProperties: {
            type: "array",
            items: {
              type: "string",
              pattern: "^[0-9a-f]{64}$",
            },
          },
        },
        tsPubkeysB64: {
          type: "object",
          additionalProperties: {
            type: "string",
            minLength: 1,
          },
        },
      },
    },
    keys: {
      type: "array",
      minItems: 1,
      items: {
        if: {
          type: "object",
          required: ["key"],
          properties: {
            key: true,
          },
        },
        then: {
          $ref: "#/$defs/keyOverTime",
        },
        else: {
          $ref: "#/$defs/key",
        },
      },
    },
    keyOverTime: {
      description:
        "A key with a window (contract §5.1): valid from validFrom, until validUntil, compromised from revokedAt on. Times are RFC 3339 UTC in whole seconds, e.g. 2026-10-01T09:30:00Z.",
      type: "object",
      required: ["key"],
      additionalProperties: false,
      properties: {
        key: {
          $ref: "#/$defs/key",
        },
        ...WINDOW_MEMBERS,
      },
    },
    time: {
      description: "RFC 3339 UTC in whole seconds: YYYY-MM-DDTHH:MM:SSZ.",
      type: "string",
    },
    key: {
      description:
        "A 64-hex raw Ed25519 public key, a PEM SubjectPublicKeyInfo (Ed25519, P-256, P-384), or a public JWK.",
      oneOf: [
        {
          type: "string",
          pattern: "^[0-9a-f]{64}$",
        },
        {
          type: "string",
          pattern: "^-----BEGIN PUBLIC KEY-----",
        },
        {
          type: "object",
          required: ["kty"],
          properties: {
            kty: {
              enum: ["OKP", "EC"],
            },
            d: false,
          },
        },
      ],
    },
    witnessKey: {
      description:
        "A 64-hex raw Ed25519 public key, or a C2SP cosignature/v1 verifier key <name>+<8 hex key ID>+<base64(0x04 ‖ key)>.",
      type: "string",
      pattern: "^(?:[0-9a-f]{64}|[^+]+\\+[0-9a-f]{8}\\+[A-Za-z0-9+/]+={0,2})$",
    },
    witnessKeyOverTime: {
      description: "A witness key with a window (contract §5.1).",
      type: "object",
      required: ["key"],
      additionalProperties: false,
      properties: {
        key: {
          $ref: "#/$defs/witnessKey",
        },
        ...WINDOW_MEMBERS,
      },
    },
    operator: {
      enum: ["independent", "producer"],
    },
    agentKeys: {
      type: "array",
      minItems: 1,
      items: {
        $ref: "#/$defs/agentKey",
      },
    },
    agentKey: {
      description:
        "A key for Agent Card JWS signatures: any trust-file key form, or an RSA public key (PEM SubjectPublicKeyInfo or JWK, at least 2048 bits). A JWK's kid selects it for signatures with that kid.",
      oneOf: [
        {
          $ref: "#/$defs/key",
        },
        {
          type: "object",
          required: ["kty"],
          properties: {
            kty: {
              const: "RSA",
            },
            d: false,
            p: false,
          },
        },
      ],
    },
  },
} as const;
