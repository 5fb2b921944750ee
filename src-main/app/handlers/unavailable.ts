/** A channel this transport does not offer (native dialogs in web mode). */
export class UnavailableError extends Error {}
