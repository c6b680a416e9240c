// Why an upload is refused: the contract's error code and a reason a person can act on
// ("this .png is really a text file", "truncated MP4"). The route turns it into the error body.
import type { ErrorCode } from '../../shared/contract/index.js';

export class AssetError extends Error {
  constructor(
    readonly code: Extract<ErrorCode, 'unsupported_media_type' | 'validation_failed' | 'payload_too_large' | 'quota_exceeded' | 'bad_request' | 'unavailable'>,
    message: string,
  ) {
    super(message);
    this.name = 'AssetError';
  }
}
