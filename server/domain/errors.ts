import type { ErrorCode, Issue } from '../../contract/errors.ts';

/**
 * What went wrong, in the domain's own terms. Domains throw these and never an HTTP status:
 * server/http/errors.ts maps each kind to a status, an error code and headers, in one place.
 * A message is a sentence for the caller (it is sent as it is), so it never holds a secret.
 */
abstract class DomainFailure extends Error {
  // Required, unlike Error's: the message is what the caller reads.
  constructor(message: string) {
    super(message);
  }
}

/**
 * Something asked for (a session, a workflow, a credential) does not exist: "`what` not found", and
 * why when given. Given `{ message }` instead, that sentence as it is: for what "X not found" would
 * say too little about (a session's downloaded files, its recording).
 */
export class NotFound extends DomainFailure {
  readonly kind = 'notFound';
  readonly issues?: Issue[];
  constructor(what: string, why?: string, issues?: Issue[]);
  constructor(said: { message: string });
  constructor(what: string | { message: string }, why?: string, issues?: Issue[]) {
    super(typeof what !== 'string' ? what.message : why ? `${what} not found: ${why}` : `${what} not found`);
    this.issues = issues;
  }
}

/** The input breaks rules: one issue per bad field. */
export class Invalid extends DomainFailure {
  readonly kind = 'invalid';
  constructor(readonly issues: Issue[]) {
    super(`Invalid request: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

/** The thing exists but its state forbids the action (not paused, not live, ended meanwhile). */
export class Conflict extends DomainFailure {
  readonly kind = 'conflict';
  constructor(
    message: string,
    readonly issues?: Issue[],
  ) {
    super(message);
  }
}

/** The thing existed but is over for good (a login ticket expired or already collected): asking again cannot help. */
export class Gone extends DomainFailure {
  readonly kind = 'gone';
}

/** A limit is reached (sessions, queued runs); trying again after a while can work. */
export class AtCapacity extends DomainFailure {
  readonly kind = 'atCapacity';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Why a service cannot do anything right now; each is also the error code the caller sees. */
export type UnavailableReason = (typeof ErrorCode)['shuttingDown' | 'browserUnavailable' | 'notConfigured'];

/** The service cannot serve the request now: shutting down, no browser, not configured. */
export class Unavailable extends DomainFailure {
  readonly kind = 'unavailable';
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** A service this one depends on (the writing model) failed. */
export class UpstreamFailed extends DomainFailure {
  readonly kind = 'upstreamFailed';
}

/** Input over a size or count limit (an uploaded file, the number of files). */
export class TooLarge extends DomainFailure {
  readonly kind = 'tooLarge';
}

/** Input that cannot be read at all (a multipart body that is not well-formed). */
export class Malformed extends DomainFailure {
  readonly kind = 'malformed';
}

export type DomainError =
  NotFound | Invalid | Conflict | Gone | AtCapacity | Unavailable | UpstreamFailed | TooLarge | Malformed;

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainFailure;
