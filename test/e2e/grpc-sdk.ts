/**
 * The SDK's own gRPC client transport (`@a2a-js/sdk/client/grpc`) against the live server, with a
 * grpc-js client interceptor standing where a tapping `fetch` stands for JSON-RPC and REST: it
 * keeps each call's metadata and request object as the client sends them, can change a request
 * before it goes out (the server then answers another question than the client asked), and can
 * answer a call with an earlier answer instead (a replayed response).
 */
import * as grpc from "@grpc/grpc-js";
import { ClientFactory, type CallInterceptor, type Client } from "@a2a-js/sdk/client";
import { GrpcTransportFactory } from "@a2a-js/sdk/client/grpc";

export interface GrpcExchange {
  /** `GetTask`, `SendMessage`, `SendStreamingMessage`, … */
  readonly method: string;
  readonly metadata: Record<string, string>;
  /** The request object, as the SDK built it (before serialization). */
  readonly request: Record<string, unknown>;
  /** The answers received (decoded by the SDK's codec). */
  readonly answers: unknown[];
}

export class GrpcTap {
  readonly exchanges: GrpcExchange[] = [];
  rewrite: ((method: string, request: Record<string, unknown>) => Record<string, unknown>) | undefined;
  /** Replaces each answer of a call. */
  answerWith: ((method: string, answer: unknown) => unknown) | undefined;

  readonly interceptor: grpc.Interceptor = (options, nextCall) => {
    const method = String(options.method_definition.path).split("/").pop() ?? "";
    let exchange: GrpcExchange | undefined;
    let metadata: Record<string, string> = {};
    return new grpc.InterceptingCall(nextCall(options), {
      start: (md, _listener, next) => {
        metadata = Object.fromEntries(Object.entries(md.getMap()).map(([k, v]) => [k, String(v)]));
        next(md, {
          onReceiveMessage: (answer: unknown, nextMessage: (m: unknown) => void) => {
            exchange?.answers.push(answer);
            nextMessage(this.answerWith ? this.answerWith(method, answer) : answer);
          },
        });
      },
      sendMessage: (request: Record<string, unknown>, next: (m: unknown) => void) => {
        exchange = { method, metadata, request, answers: [] };
        this.exchanges.push(exchange);
        next(this.rewrite ? this.rewrite(method, request) : request);
      },
    });
  };

  /** The last call of this method. */
  last(method: string): GrpcExchange {
    const found = this.exchanges.filter((e) => e.method === method).pop();
    if (!found) throw new Error(`no ${method} call was made`);
    return found;
  }
}

/** An SDK client on the live server's GRPC interface (from its Agent Card), polling, with the interceptors. */
export async function sdkGrpcClient(
  baseUrl: string,
  options: { tap: GrpcTap; interceptors?: CallInterceptor[]; polling?: boolean },
): Promise<Client> {
  const factory = new ClientFactory({
    transports: [new GrpcTransportFactory({ grpcCallOptions: { interceptors: [options.tap.interceptor] } })],
    preferredTransports: ["GRPC"],
    clientConfig: { polling: options.polling ?? true, interceptors: options.interceptors ?? [] },
  });
  return factory.createFromUrl(baseUrl);
}
