import { AppError } from '../src/domain/errors';

// Operations whose issue has not landed yet answer 501 with the error body (never fake data).
export const notImplemented = async (): Promise<never> => {
  throw new AppError('not_implemented');
};
