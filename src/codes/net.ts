/** Failure codes of the one networked command, `fetch`. All of them exit 2 and write nothing. */
export const NET_CODES = [
  /** The URL is not an absolute http(s) URL, or carries credentials. */
  "NET_BAD_URL",
  /** The host name does not resolve. */
  "NET_DNS",
  /** Nothing listens at the address (ECONNREFUSED). */
  "NET_CONNECTION_REFUSED",
  /** No connection within the connect timeout. */
  "NET_CONNECT_TIMEOUT",
  /** No complete response within the total timeout. */
  "NET_TIMEOUT",
  /** The TLS handshake failed (certificate, protocol). */
  "NET_TLS",
  /** Any other socket error (reset, broken pipe). */
  "NET_IO",
  /** A 3xx response: fetch uses the exact URL given and never follows a redirect. */
  "NET_REDIRECT",
  /** A response status outside 2xx. */
  "NET_HTTP_STATUS",
  /** A gRPC answer whose status is not OK (grpc-status other than 0): the status and the server's message. */
  "NET_GRPC_STATUS",
  /** The body is larger than the size cap. */
  "NET_BODY_TOO_LARGE",
  /** The body is not strict JSON, or is not declared as JSON. */
  "NET_NOT_JSON",
  /** A JSON-RPC error response. */
  "NET_JSONRPC_ERROR",
  /** A JSON-RPC response that does not answer the request (id, version, no result). */
  "NET_JSONRPC_MISMATCH",
  /** The response is JSON but not the A2A object the call returns (a Task, a SendMessageResponse). */
  "NET_UNEXPECTED_RESPONSE",
  /** The Task did not reach a terminal state within the bounded number of polls. */
  "NET_NOT_TERMINAL",
] as const;
export type NetCode = (typeof NET_CODES)[number];
