/**
 * The part of AbortSignal that the isomorphic code uses. Core's isomorphic part
 * compiles without DOM or Node types; every real AbortSignal satisfies this.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
