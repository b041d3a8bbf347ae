import type { Handler } from '../../src/http/handlerTypes';
import { supported } from '../../src/usecases/x402/facilitator';

export const getX402Supported: Handler<'getX402Supported'> = async ({ chainWork }) => ({ status: 200, body: supported(chainWork) });
