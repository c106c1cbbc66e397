/**
 * What a failed file operation says to a person: "no such file",
 * "permission denied", "the disk is full"…, else the system's own message.
 * (Node's errors carry `code`; read here without Node's types, so that every
 * layer can say it alike.)
 */
export function fileErrorReason(error: unknown): string {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    message?: unknown;
  };
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'EROFS':
      return 'the disk is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return typeof message === 'string' ? message : String(error);
  }
}
