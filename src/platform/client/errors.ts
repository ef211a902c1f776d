// The platform client's errors: one base class that knows its status, code and whether retrying can
// help, and one subclass per outcome a caller handles differently. Messages say what to do next.

/** What every platform error carries beside its message. */
export interface PlatformErrorOptions {
  /** HTTP status the platform answered; 0 when there was no answer (or the request was never sent). */
  status: number;
  /** A stable, machine-readable code (the platform's own when it sent one). */
  code: string;
  /** Whether the same request may succeed if sent again later. */
  retryable?: boolean;
  /** True when a non-idempotent request failed without a clear answer: it may have been applied. */
  ambiguous?: boolean;
  method?: string;
  /** Path of the request, never with its query string (which may hold the key). */
  path?: string;
  /** Problems the platform listed, when it sent any. */
  details?: unknown;
  cause?: unknown;
}

/**
 * Base of every error the platform client throws.
 * @example if (error instanceof PlatformError && error.ambiguous) await client.customFunctions.list()
 */
export class PlatformError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly ambiguous: boolean;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly details: unknown;

  constructor(message: string, options: PlatformErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlatformError';
    this.status = options.status;
    this.code = options.code;
    this.retryable = options.retryable ?? false;
    this.ambiguous = options.ambiguous ?? false;
    this.method = options.method;
    this.path = options.path;
    this.details = options.details;
  }
}

/** 401: the key is missing, wrong or revoked. */
export class AuthenticationError extends PlatformError {
  override readonly name = 'AuthenticationError';
}

/** 403: the account's plan does not include API access (the spec's only meaning of 403). */
export class PlanError extends PlatformError {
  override readonly name = 'PlanError';
}

/** 404: no such resource (or a wrong base URL). */
export class NotFoundError extends PlatformError {
  override readonly name = 'NotFoundError';
}

/** 409: the resource already exists, for example a custom function of the same name. */
export class ConflictError extends PlatformError {
  override readonly name = 'ConflictError';
}

/** 400 or 422 from the platform, or a payload the client refused to send. */
export class ValidationError extends PlatformError {
  override readonly name = 'ValidationError';
}

/** 429: the per-key rate limit; `retryAfterMs` is the platform's hint, when it gave one. */
export class RateLimitError extends PlatformError {
  override readonly name = 'RateLimitError';
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: PlatformErrorOptions & { retryAfterMs?: number }) {
    super(message, { retryable: true, ...options });
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** 5xx: the platform failed. For a POST it may still have applied the request (`ambiguous`). */
export class ServerError extends PlatformError {
  override readonly name = 'ServerError';
}

/** No answer at all: connection refused or reset, DNS failure, or the per-request timeout. */
export class NetworkError extends PlatformError {
  override readonly name = 'NetworkError';
  /** True when the client gave up waiting (timeoutMs), rather than the connection failing. */
  readonly timedOut: boolean;

  constructor(message: string, options: PlatformErrorOptions & { timedOut?: boolean }) {
    super(message, options);
    this.timedOut = options.timedOut ?? false;
  }
}
