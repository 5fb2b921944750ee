/**
 * Which filesystem a path lives on (statfs's f_type), and whether it is a network or cluster
 * filesystem, where SQLite's locking and WAL mode are unsafe (NFS, Lustre, GPFS, CIFS, ...).
 */
import { statfsSync } from 'node:fs';
import path from 'node:path';

/** statfs magic numbers (linux/magic.h and the vendors' headers). */
const TYPES: Record<number, { name: string; network: boolean }> = {
  0x6969: { name: 'nfs', network: true },
  0x0bd00bd0: { name: 'lustre', network: true },
  0x47504653: { name: 'gpfs', network: true },
  0xff534d42: { name: 'cifs', network: true },
  0xfe534d42: { name: 'smb2', network: true },
  0x517b: { name: 'smb', network: true },
  0x19830326: { name: 'beegfs', network: true },
  0x00c36400: { name: 'ceph', network: true },
  0x6b414653: { name: 'afs', network: true },
  // sshfs is FUSE, but so are the overlays of rootless containers on local disks: not refused.
  0x65735546: { name: 'fuse', network: false },
  0xaad7aaea: { name: 'panfs', network: true },
  0xef53: { name: 'ext4', network: false },
  0x58465342: { name: 'xfs', network: false },
  0x9123683e: { name: 'btrfs', network: false },
  0x01021994: { name: 'tmpfs', network: false },
  0x794c7630: { name: 'overlay', network: false },
  0x2fc12fc1: { name: 'zfs', network: false },
  0xf2f52010: { name: 'f2fs', network: false },
  0x4d44: { name: 'vfat', network: false },
  0x5346544e: { name: 'ntfs', network: false },
};

export interface FilesystemInfo {
  /** Known name ("ext4", "nfs"), else the magic number in hex; "unknown" where statfs cannot tell. */
  type: string;
  network: boolean;
  /** Bytes free to this user, or null when unknown. */
  freeBytes: number | null;
}

/** The nearest folder of `p` that exists (a database file may not be there yet). */
function existingAncestor(p: string): string {
  let dir = path.resolve(p);
  for (;;) {
    try {
      statfsSync(dir);
      return dir;
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return dir;
      dir = up;
    }
  }
}

export function filesystemOf(p: string): FilesystemInfo {
  try {
    const s = statfsSync(existingAncestor(p));
    // f_type is a signed 32-bit value on some platforms: read it unsigned.
    const magic = s.type >>> 0;
    const known = TYPES[magic];
    return {
      type: known?.name ?? `0x${magic.toString(16)}`,
      network: known?.network ?? false,
      freeBytes: s.bavail * s.bsize,
    };
  } catch {
    return { type: 'unknown', network: false, freeBytes: null };
  }
}

/** Lets a user keep the database on a network filesystem anyway (one writer, at their own risk). */
export const ALLOW_NETWORK_DB_ENV = 'PIPEDEJAVU_ALLOW_NETWORK_DB';
