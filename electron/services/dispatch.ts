// The one entry point both transports use: look the method up in the bridge table, validate the
// input with its schema, run the handler, and frame the answer as a BridgeResponse.
import { bridgeInputs, type BridgeMethod, type BridgeResponse, type StudioHandlers } from '../../shared/bridge/index.js';
import { BridgeFailure, invalidInput, toBridgeError } from './errors.js';

export function isBridgeMethod(name: string): name is BridgeMethod {
  return Object.prototype.hasOwnProperty.call(bridgeInputs, name);
}

export async function dispatch(handlers: StudioHandlers, method: string, input: unknown): Promise<BridgeResponse<unknown>> {
  try {
    if (!isBridgeMethod(method)) throw new BridgeFailure('not_found', `unknown bridge method "${method.slice(0, 64)}"`);
    const parsed = bridgeInputs[method].safeParse(input ?? undefined);
    if (!parsed.success) throw invalidInput(parsed.error);
    const handler = handlers[method] as (i: unknown) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data) };
  } catch (e) {
    return { ok: false, error: toBridgeError(e) };
  }
}
