/**
 * Reads a file a user named, for import: only a regular file, and never more than a cap.
 * A device (/dev/zero), a FIFO or a socket is refused before it is read (a FIFO is opened
 * non-blocking, so a pipe nobody writes to cannot hang the command), and a file that
 * grows while it is read stops at the cap.
 */
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { UserError } from '../../core/errors.js';

const size = (n: number): string =>
  n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${Math.ceil(n / 2 ** 20)} MiB` : `${n} bytes`;

function notRegular(file: string, what: string): UserError {
  return new UserError(`${file} is not a regular file (a device, pipe or socket); save the ${what} to a file first`);
}

function openError(file: string, e: unknown): UserError {
  const code = (e as NodeJS.ErrnoException).code;
  return new UserError(code === 'ENOENT' ? `no such file: ${file}` : `cannot read ${file} (${code ?? 'error'})`);
}

/** Checks the path (exists, not a directory, a regular file) and returns its size. */
export function regularFileSize(file: string, what: string): number {
  let st;
  try {
    st = statSync(file);
  } catch (e) {
    throw openError(file, e);
  }
  if (st.isDirectory())
    throw new UserError(`${file} is a directory, not ${what.startsWith('ONNX') ? 'an' : 'a'} ${what} file`);
  if (!st.isFile()) throw notRegular(file, what);
  return st.size;
}

/** An open descriptor of a regular file (never blocks on a FIFO); the caller closes it. */
export function openRegular(file: string, what: string): number {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    throw openError(file, e);
  }
  try {
    if (!fstatSync(fd).isFile()) throw notRegular(file, what);
  } catch (e) {
    closeSync(fd);
    throw e;
  }
  return fd;
}

function readRest(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(16 * 2 ** 20, limit - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/** The bytes of a regular file of at most `maxBytes`; `tooLarge` words the refusal. */
export function readRegularFile(
  file: string,
  what: string,
  maxBytes: number,
  tooLarge: (bytes: number) => string = (n) => `${file} is ${size(n)}, too large to be a ${what}`,
): Uint8Array {
  const onDisk = regularFileSize(file, what);
  if (onDisk > maxBytes) throw new UserError(tooLarge(onDisk));
  const fd = openRegular(file, what);
  try {
    return readOpenFile(fd, file, maxBytes, tooLarge);
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of an open regular file, at most `maxBytes` (a file that grows while it is read
 * stops at the cap); the caller opened it and closes it.
 */
export function readOpenFile(
  fd: number,
  file: string,
  maxBytes: number,
  tooLarge: (bytes: number) => string,
): Uint8Array {
  try {
    const st = fstatSync(fd);
    if (st.size > maxBytes) throw new UserError(tooLarge(st.size));
    // One buffer of the size on disk plus one byte: a file that grew past the cap is caught.
    const buf = Buffer.allocUnsafe(Math.min(maxBytes, st.size) + 1);
    let total = 0;
    for (;;) {
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new UserError(tooLarge(total));
      if (total === buf.length) {
        // It grew while we read: keep reading in chunks, up to the cap.
        const rest = readRest(fd, maxBytes - total + 1);
        if (total + rest.length > maxBytes) throw new UserError(tooLarge(total + rest.length));
        return Buffer.concat([buf, rest]);
      }
    }
    return buf.subarray(0, total);
  } catch (e) {
    if (e instanceof UserError) throw e;
    throw openError(file, e);
  }
}
