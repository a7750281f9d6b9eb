/**
 * The SDK client side of the e2e test: a ClientFactory over a tapping `fetch` that keeps every
 * exchange's request headers and exact response bytes (the SDK hands back decoded objects only;
 * a2a-js-sdk.md §3.3), a client per binding, and the reference requirement.
 */
import {
  ClientFactory,
  JsonRpcTransportFactory,
  RestTransportFactory,
  type CallInterceptor,
  type Client,
} from "@a2a-js/sdk/client";
import { EXTENSION_URI, RECORD_PROFILE } from "../../producer/constants.js";
import { KIND_METADATA_KEY } from "./server.js";

export type Binding = "JSONRPC" | "HTTP+JSON";
export const BINDINGS: readonly Binding[] = ["JSONRPC", "HTTP+JSON"];

export interface Tapped {
  readonly url: string;
  readonly method: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestBody: string | undefined;
  readonly status: number;
  readonly responseHeaders: Record<string, string>;
  /** Resolves once the whole body has arrived (a stream ends when the server closes it). */
  readonly body: Promise<Uint8Array>;
}

/** A request as a dishonest server (or what stands between) may see it. */
export interface TapRequest {
  readonly url: string;
  readonly method: string;
  readonly body: string | undefined;
}

export class Tap {
  readonly exchanges: Tapped[] = [];
  /** Changes a request before it is sent: the server then answers another question than the client asked. */
  rewrite: ((r: TapRequest) => TapRequest) | undefined;
  /** Answers a request with this JSON text instead of sending it (a replayed response). */
  answerWith: ((r: TapRequest) => string | undefined) | undefined;

  readonly fetch: typeof fetch = async (input, init) => {
    const asked = new Request(input, init);
    const askedBody = init?.body === undefined || init.body === null ? undefined : String(init.body);
    const sent = this.rewrite?.({ url: asked.url, method: asked.method, body: askedBody });
    const request = sent
      ? new Request(sent.url, {
          method: sent.method,
          headers: asked.headers,
          ...(sent.body !== undefined ? { body: sent.body } : {}),
        })
      : asked;
    const requestBody = sent ? sent.body : askedBody;
    const canned = this.answerWith?.({ url: request.url, method: request.method, body: requestBody });
    const response =
      canned !== undefined
        ? new Response(canned, { status: 200, headers: { "content-type": "application/json" } })
        : await fetch(request);
    const copy = response.clone();
    this.exchanges.push({
      url: request.url,
      method: request.method,
      requestHeaders: Object.fromEntries(request.headers.entries()),
      requestBody,
      status: response.status,
      responseHeaders: Object.fromEntries(response.headers.entries()),
      body: copy.arrayBuffer().then((b) => new Uint8Array(b)),
    });
    return response;
  };

  /** The last exchange whose URL or JSON-RPC method matches. */
  last(match: (t: Tapped) => boolean): Tapped {
    for (let i = this.exchanges.length - 1; i >= 0; i--) {
      const t = this.exchanges[i] as Tapped;
      if (match(t)) return t;
    }
    throw new Error("no tapped exchange matches");
  }
}

/** What the matchers below read of an exchange: a request alone will do. */
type RequestOf = Pick<Tapped, "url" | "method" | "requestBody">;
export const asTapped = (r: TapRequest): RequestOf => ({ url: r.url, method: r.method, requestBody: r.body });

export const isGetTask = (t: RequestOf): boolean =>
  (t.method === "GET" && /\/tasks\/[^/]+$/.test(new URL(t.url).pathname)) ||
  (t.requestBody ?? "").includes('"method":"GetTask"');
export const isSend = (t: RequestOf): boolean =>
  /\/message:(send|stream)$/.test(new URL(t.url).pathname) ||
  /"method":"(SendMessage|SendStreamingMessage)"/.test(t.requestBody ?? "");

export async function sdkClient(
  baseUrl: string,
  binding: Binding,
  options: { tap: Tap; interceptors?: CallInterceptor[]; polling?: boolean },
): Promise<Client> {
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl: options.tap.fetch }),
      new RestTransportFactory({ fetchImpl: options.tap.fetch }),
    ],
    cardResolver: undefined,
    preferredTransports: [binding],
    clientConfig: { polling: options.polling ?? true, interceptors: options.interceptors ?? [] },
  });
  return factory.createFromUrl(baseUrl);
}

export interface RequirementJson {
  readonly requirement: "REQUIRED" | "PREFERRED";
  readonly recordProfile: string;
  readonly minimumEvidence: string;
  readonly deliveryModes: readonly string[];
  readonly maximumRegistrationDelaySeconds: number;
  readonly requireTask: boolean;
}

export const REFERENCE_REQUIREMENT: RequirementJson = {
  requirement: "REQUIRED",
  recordProfile: RECORD_PROFILE,
  minimumEvidence: "EXTERNALLY_REGISTERED",
  deliveryModes: ["EVIDENCE_ARTIFACT"],
  maximumRegistrationDelaySeconds: 60,
  requireTask: true,
};

let counter = 0;

/** A SendMessageRequest (SDK form) for one kind, with the requirement in the Message unless `requirement` is null. */
export function sendRequest(kind: string, text: string, requirement: RequirementJson | null = REFERENCE_REQUIREMENT) {
  counter += 1;
  return {
    tenant: "",
    message: {
      messageId: `msg-e2e-${process.pid}-${counter}`,
      contextId: "",
      taskId: "",
      role: 1, // ROLE_USER
      parts: [
        {
          content: { $case: "text" as const, value: text },
          metadata: undefined,
          filename: "",
          mediaType: "text/plain",
        },
      ],
      metadata: requirement ? { [EXTENSION_URI]: { ...requirement } } : undefined,
      extensions: requirement ? [EXTENSION_URI] : [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: { [KIND_METADATA_KEY]: kind },
  };
}

/** The client's answer to the paused kind's question. */
export const RESUME_TEXT = "text, please.";

/**
 * The second Message of a Task that waits for input: on the same taskId and contextId (the Task
 * it continues, by its own ids; `contextId: ""` leaves the context out, as ProtoJSON omits it).
 */
export function resumeRequest(
  kind: string,
  task: { readonly id: string; readonly contextId: string },
  text = RESUME_TEXT,
) {
  counter += 1;
  return {
    tenant: "",
    message: {
      messageId: `msg-e2e-${process.pid}-${counter}`,
      contextId: task.contextId,
      taskId: task.id,
      role: 1, // ROLE_USER
      parts: [
        {
          content: { $case: "text" as const, value: text },
          metadata: undefined,
          filename: "",
          mediaType: "text/plain",
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: { [KIND_METADATA_KEY]: kind },
  };
}

export const EXTENSION_HEADER = { serviceParameters: { "A2A-Extensions": EXTENSION_URI } };
