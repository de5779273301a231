// har-validator ships no types; the one call the tests make, typed.
declare module 'har-validator' {
  /** Resolves with `data` when it is a valid HAR 1.2 log; rejects with the schema's errors otherwise. */
  export function har<T>(data: T): Promise<T>;
}
