/**
 * Hostile-input bench (issue 45). Run: npm run bench:hostile [-- CASE_ID ...]
 *
 * Every case of issue 45 and more of the same kind, each against the built CLI
 * (`./bin/pipedejavu.js`) in a fresh temp store, a child per command killed at 20 s. Per case: exit
 * code, the first line the user reads, wall time, peak RSS of the process tree, whether a marker
 * file appeared (emitted scripts are run with stub srun/torchrun/python tools and a stub torch
 * module, and scanned for the payload as a line of code), whether a file that existed before
 * changed. Verdicts: ok / EXEC / OVERWRITE / HANG / MEMORY / LEAK / NO-MESSAGE (bench/lib/hostile-run.ts).
 * A whole run writes bench/results/hostile-DATE.json and .md (a table to paste); named cases are only printed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encodeProfile } from '../src-main/core/profile-file/codec.js';
import { encodeArchive } from '../src-main/core/profile-file/archive.js';
import { LIMITS } from '../src-main/core/profile-file/schema.js';
import { UPLOAD_LIMITS } from '../src-main/adapters/files/upload-store.js';
import { MAX_BODY_BYTES } from '../src-main/http/server.js';
import { bigProfileFile } from '../test/helpers/big-profile.js';
import { sampleProfileFile } from '../test/helpers/sample-profile.js';
import { seededDb, SEEDED_MACHINE } from '../test/helpers/seeded-store.js';
import { makeReadOnly } from '../test/helpers/read-only.js';
import { ncclTwoRanks } from '../test/helpers/gpu-profile.js';
import {
  claimedInitializer,
  deepJson,
  externalDataModel,
  GGUF_ARRAY_OF,
  hugeMatMul,
  llamaGguf,
  nestedIf,
  writeBigWeightModel,
  nodeProfile,
  reluChain,
  writeHugeProfile,
  writeManyTensorSafetensors,
} from './lib/hostile-inputs.js';
import { LLAMA_31_8B } from '../test/helpers/hf-configs.js';
import { writeSafetensorsFile } from '../test/helpers/safetensors.js';
import { SAFETENSORS_LIMITS } from '../src-main/core/catalog/safetensors.js';
import {
  fingerprint,
  firstLine,
  judge,
  payloadCodeLines,
  peakRss,
  runChild,
  type RunResult,
  type Verdict,
} from './lib/hostile-run.js';

const ROOT = process.cwd();
const CLI = path.join(ROOT, 'bin', 'pipedejavu.js');
const WORK = mkdtempSync(path.join(os.tmpdir(), 'pdjv-hostile-'));
const BASE_DB = path.join(WORK, 'base.db');

/** What a case sets up in its own folder: the commands, and what to watch. */
interface Setup {
  /** CLI argument lists run in order (each with --db); the case is judged on the first that fails, or the last. */
  steps: string[][];
  expect: 'refuse' | 'succeed';
  protect?: string[];
  marker?: string;
  /** A folder of emitted scripts to run (with stubs) and scan for the payload. */
  emitted?: string;
  payloadStart?: string;
  /** After the steps: data lost, or a leak, in the case's own words (null: none). */
  after?: (
    db: string,
    result: RunResult,
  ) => Promise<{ lost?: string | null; leak?: string | null; messageProblem?: string | null }>;
  /** A case that is not a CLI run (serve): produces its own result. */
  custom?: (db: string) => Promise<{ result: RunResult; leak?: string | null; messageProblem?: string | null }>;
}

interface Case {
  id: string;
  what: string;
  fromIssue: boolean;
  setup: (dir: string, db: string) => Setup | Promise<Setup>;
}

interface Row {
  id: string;
  what: string;
  fromIssue: boolean;
  verdict: Verdict;
  why: string;
  code: number | null;
  line: string;
  wallS: number;
  peakRssMiB: number | null;
}

const w = (file: string, data: string | Uint8Array): string => {
  writeFileSync(file, data);
  return file;
};

const cli = (db: string, args: readonly string[], limitMs?: number): Promise<RunResult> =>
  runChild(process.execPath, [CLI, ...args, ...(args.includes('--db') ? [] : ['--db', db])], {
    env: { ...process.env, PIPEDEJAVU_PYTHON: '/bin/false', HOME: path.dirname(db) },
    ...(limitMs ? { limitMs } : {}),
  });

const PLAN = ['plan', '--workload', 'gpt2-small', '--devices', 'none', '--batch', '8'];

/** Stub tools an emitted script calls, so running it does nothing but what its text makes it do. */
function stubTools(dir: string): { path: string; pythonPath: string } {
  const bin = path.join(dir, 'stub-bin');
  mkdirSync(bin, { recursive: true });
  for (const tool of [
    'srun',
    'sbatch',
    'scontrol',
    'torchrun',
    'deepspeed',
    'vllm',
    'llama-server',
    'llama-cli',
    'mpirun',
    'nvidia-smi',
    'python',
    'pip',
  ])
    chmodSync(w(path.join(bin, tool), '#!/bin/sh\nexit 0\n'), 0o755);
  const py = path.join(dir, 'stub-py');
  mkdirSync(path.join(py, 'torch'), { recursive: true });
  // Any torch.x.y(...) is a do-nothing object.
  w(
    path.join(py, 'torch', '__init__.py'),
    'class _A:\n    def __getattr__(self, n): return _A()\n    def __call__(self, *a, **k): return _A()\n    def __iter__(self): return iter(())\n    def __mro_entries__(self, b): return (object,)\n' +
      'def __getattr__(n): return _A()\n',
  );
  for (const sub of [
    'nn',
    'distributed',
    'distributed/pipelining',
    'distributed/tensor',
    'distributed/tensor/parallel',
    'nn/functional',
  ]) {
    mkdirSync(path.join(py, 'torch', sub), { recursive: true });
    w(path.join(py, 'torch', sub, '__init__.py'), 'from torch import _A\ndef __getattr__(n): return _A()\n');
  }
  return { path: `${bin}:/usr/bin:/bin`, pythonPath: py };
}

/** Runs every emitted shell and Python script with stubs (each bounded), so an injected line would run. */
async function runEmitted(dir: string, work: string): Promise<void> {
  if (!existsSync(dir)) return;
  const stubs = stubTools(work);
  const env = { PATH: stubs.path, PYTHONPATH: stubs.pythonPath, HOME: work };
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (/\.(sbatch|sh)$/.test(f) || f === 'job.sbatch')
      await runChild('/bin/bash', [p], { env, cwd: dir, limitMs: 10_000 });
    else if (f.endsWith('.py')) await runChild('/usr/bin/python3', [p], { env, cwd: dir, limitMs: 10_000 });
  }
}

// Shell payload (bash) and Python payload, each creating the case's marker file.
const shPayload = (marker: string): string => `touch ${marker}`;
const pyPayload = (marker: string): string => `open(${JSON.stringify(marker)}, "w").close()`;

/** Import a profile, then plan on its machine with --emit: the hostile text must stay data. */
function emitCase(dir: string, profile: ReturnType<typeof nodeProfile>, payloadStart: string, marker: string): Setup {
  const file = w(path.join(dir, 'node.json'), encodeProfile(profile));
  const emit = path.join(dir, 'emit');
  return {
    steps: [
      ['import', file],
      [...PLAN, '--machine', '*', '--network', '100GbE', '--emit', emit],
    ],
    expect: 'succeed',
    marker,
    emitted: emit,
    payloadStart,
  };
}

const machineCount = async (db: string, label: string): Promise<string> => {
  const r = await cli(db, ['machines', '--json']);
  return r.stdout.includes(label) ? 'present' : 'absent';
};

/** Serving a model file on the CPU: a bad file must be refused. */
const planRefused = (model: string): Setup => ({
  steps: [['plan', '--workload', model, '--devices', 'cpu', '--mode', 'inference']],
  expect: 'refuse',
});

const CASES: Case[] = [
  // ---------- 1. code execution through plan --emit ----------
  {
    id: 'emit-label-newline',
    what: 'machine label "n1\\ntouch MARKER" -> plan --emit; run job.sbatch',
    fromIssue: true,
    setup: (dir) => {
      const m = path.join(dir, 'MARKER');
      return emitCase(dir, nodeProfile('n1', { label: `n1\n${shPayload(m)}` }), shPayload(m), m);
    },
  },
  {
    id: 'emit-gpu-name-newline',
    what: 'GPU name "H100\\ntouch MARKER" -> plan --emit; run job.sbatch',
    fromIssue: true,
    setup: (dir) => {
      const m = path.join(dir, 'MARKER');
      return emitCase(dir, nodeProfile('n1', { gpuName: `NVIDIA H100 80GB HBM3\n${shPayload(m)}` }), shPayload(m), m);
    },
  },
  {
    id: 'emit-onnx-node-name',
    what: 'ONNX node name "r\\nopen(MARKER)" -> plan --emit; run pipeline_module.py with a stub torch',
    fromIssue: true,
    setup: (dir) => {
      const m = path.join(dir, 'MARKER');
      const model = w(
        path.join(dir, 'evil.onnx'),
        reluChain(8, (i) => `relu${i}\n${pyPayload(m)}`),
      );
      const emit = path.join(dir, 'emit');
      return {
        steps: [['plan', '--workload', model, '--devices', 'none', '--virtual', '2xH100 SXM5', '--emit', emit]],
        expect: 'succeed',
        marker: m,
        emitted: emit,
        payloadStart: pyPayload(m),
      };
    },
  },
  {
    id: 'emit-label-cr-u2028',
    what: 'machine label with CR and U+2028 before a payload -> plan --emit',
    fromIssue: false,
    setup: (dir) => {
      const m = path.join(dir, 'MARKER');
      return emitCase(dir, nodeProfile('n1', { label: `n1\r\u2028${shPayload(m)}` }), shPayload(m), m);
    },
  },
  {
    id: 'emit-label-subshell',
    what: 'machine label "n1$(touch MARKER)`touch MARKER`" -> plan --emit; run job.sbatch',
    fromIssue: false,
    setup: (dir) => {
      const m = path.join(dir, 'MARKER');
      return emitCase(dir, nodeProfile('n1', { label: `n1$(touch ${m})\`touch ${m}\`` }), '\u0000never', m);
    },
  },
  // ---------- 2. silent data loss ----------
  {
    id: 'emit-overwrite',
    what: 'plan --emit DIR where DIR already holds README.txt and hostfile',
    fromIssue: true,
    setup: (dir) => {
      const emit = path.join(dir, 'emit');
      mkdirSync(emit);
      const mine = [w(path.join(emit, 'README.txt'), 'my notes\n'), w(path.join(emit, 'hostfile'), 'mine slots=1\n')];
      return { steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--emit', emit]], expect: 'refuse', protect: mine };
    },
  },
  {
    id: 'emit-symlink-out',
    what: 'plan --emit DIR where DIR/hostfile is a symlink to a file outside',
    fromIssue: true,
    setup: (dir) => {
      const emit = path.join(dir, 'emit');
      mkdirSync(emit);
      const outside = w(path.join(dir, 'outside.txt'), 'precious\n');
      for (const f of ['hostfile', 'job.sbatch', 'README.txt', 'train_pipeline.py'])
        symlinkSync(outside, path.join(emit, f));
      return { steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--emit', emit]], expect: 'refuse', protect: [outside] };
    },
  },
  {
    id: 'import-older-over-newer',
    what: 'import an export with 868 measurements, then an older one of the same machine with 10',
    fromIssue: true,
    setup: (dir) => {
      const id = 'o1d0o1d0o1d0o1d0';
      const newer = bigProfileFile(868, id);
      const older = bigProfileFile(10, id);
      newer.provenance = { ...newer.provenance, exportedAt: '2026-11-20T00:00:00.000Z' };
      older.provenance = { ...older.provenance, exportedAt: '2026-01-01T00:00:00.000Z' };
      const a = w(path.join(dir, 'newer.json'), encodeProfile(newer));
      const b = w(path.join(dir, 'older.json'), encodeProfile(older));
      return {
        steps: [
          ['import', a],
          ['import', b],
        ],
        expect: 'refuse',
        after: async (db) => {
          const r = await cli(db, ['export', '--machine', id]);
          const n = (r.stdout.match(/"runId"/g) ?? []).length;
          return { lost: n >= 868 ? null : `${n} measurements left of 868` };
        },
      };
    },
  },
  {
    id: 'archive-with-own-profile',
    what: "import an archive holding this machine's own profile and another machine",
    fromIssue: true,
    setup: (dir) => {
      // This machine's own export (a backup; merging it adds the runs the store lacks) beside a
      // machine whose run id is one of this machine's: the merge must refuse, and with it the archive.
      const own = sampleProfileFile();
      own.machine = { ...own.machine, id: SEEDED_MACHINE };
      const other = sampleProfileFile();
      other.machine = { ...other.machine, id: 'other0000000node', label: 'other-node' };
      const file = w(path.join(dir, 'archive.json'), encodeArchive([other, own]));
      return {
        steps: [['import', file]],
        expect: 'refuse',
        after: async (db) => ({
          lost:
            (await machineCount(db, 'other-node')) === 'present'
              ? 'imported in part (other-node is in the store)'
              : null,
        }),
      };
    },
  },
  // ---------- 3. hangs from tiny inputs ----------
  {
    id: 'links-glob-backtrack',
    what: 'links file: 60 "*" and one letter, both columns',
    fromIssue: true,
    setup: (dir) => {
      const pat = `${'*'.repeat(60)}x`;
      const links = w(path.join(dir, 'links.txt'), `${pat} ${pat} 100GbE\n`);
      const a = w(
        path.join(dir, 'a.json'),
        encodeProfile(nodeProfile('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')),
      );
      const b = w(
        path.join(dir, 'b.json'),
        encodeProfile(nodeProfile('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')),
      );
      return {
        steps: [
          ['import', a],
          ['import', b],
          [...PLAN, '--machine', '*', '--links', links],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'machine-glob-backtrack',
    what: '--machine with 60 "*" and one letter',
    fromIssue: true,
    setup: (dir) => {
      const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('a'.repeat(80))));
      return {
        steps: [
          ['import', a],
          [...PLAN, '--machine', `${'*'.repeat(60)}x`],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'gguf-block-count-1e9',
    what: 'GGUF (311 B) with block_count 1e9 -> plan',
    fromIssue: true,
    setup: (dir) => {
      const f = w(path.join(dir, 'm.gguf'), llamaGguf({ 'llama.block_count': { type: 'u32', value: 1e9 } }));
      return planRefused(f);
    },
  },
  {
    id: 'gguf-ffn-2^50',
    what: 'GGUF with feed_forward_length 2^50 -> plan',
    fromIssue: true,
    setup: (dir) => {
      const f = w(
        path.join(dir, 'm.gguf'),
        llamaGguf({ 'llama.feed_forward_length': { type: 'u64', value: 2n ** 50n } }),
      );
      return planRefused(f);
    },
  },
  // ---------- 4. memory and a frozen server ----------
  {
    id: 'onnx-million-relu',
    what: 'ONNX with 1,000,000 Relu nodes (~25 MB) -> workload add',
    fromIssue: true,
    setup: (dir) => ({
      steps: [['workload', 'add', w(path.join(dir, 'relu.onnx'), reluChain(1_000_000))]],
      expect: 'refuse',
    }),
  },
  {
    id: 'profile-near-cap',
    what: "the issue's profile with a 3000x3000 topology (433 MB then; 361 MiB here, over the 128 MiB cap now) -> import",
    fromIssue: true,
    setup: async (dir) => {
      const f = path.join(dir, 'huge.json');
      await writeHugeProfile(f, nodeProfile('huge-node'), 3000, 0);
      return { steps: [['import', f]], expect: 'refuse' };
    },
  },
  {
    id: 'profile-topology-under-cap',
    what: 'profile just under LIMITS.maxFileBytes whose topology is as large as fits (n x n GPUs) -> import',
    fromIssue: false,
    setup: async (dir) => {
      const f = path.join(dir, 'topology.json');
      // A matrix cell is 41 bytes: the largest n x n topology that fits under the cap, padded up to it.
      const n = Math.floor(Math.sqrt((LIMITS.maxFileBytes - 2 ** 20) / 42));
      await writeHugeProfile(f, nodeProfile('topology-node'), n, LIMITS.maxFileBytes - 4096);
      return { steps: [['import', f]], expect: 'refuse' };
    },
  },
  {
    id: 'onnx-199k-long-names',
    what: 'ONNX with 199,000 Relu nodes (under the node cap), each named with 200+ characters (47 MB) -> workload add',
    fromIssue: false,
    setup: (dir) => {
      const long = 'x'.repeat(200);
      const f = w(
        path.join(dir, 'long.onnx'),
        reluChain(199_000, (i) => `${long}/${i}`),
      );
      return { steps: [['workload', 'add', f]], expect: 'succeed' };
    },
  },
  {
    id: 'onnx-1GiB-weights',
    what: 'a real ONNX model with a 1 GiB weight (16384 x 16384 floats) -> workload add (accepted, under 1 GB)',
    fromIssue: false,
    setup: async (dir) => {
      const f = path.join(dir, 'big.onnx');
      await writeBigWeightModel(f, 16_384);
      return { steps: [['workload', 'add', f]], expect: 'succeed' };
    },
  },
  {
    id: 'onnx-nested-if-100k',
    what: 'ONNX with If nested 100,000 deep -> workload add',
    fromIssue: true,
    setup: (dir) => ({
      steps: [['workload', 'add', w(path.join(dir, 'if.onnx'), nestedIf(100_000))]],
      expect: 'refuse',
    }),
  },
  {
    id: 'onnx-matmul-2^63-1',
    what: 'ONNX MatMul with dimensions 2^63-1 -> workload add',
    fromIssue: true,
    setup: (dir) => ({
      steps: [['workload', 'add', w(path.join(dir, 'mm.onnx'), hugeMatMul(2n ** 63n - 1n))]],
      expect: 'refuse',
    }),
  },
  // ---------- 5. answers that mislead ----------
  ...(
    [
      [
        'doctor-text-file',
        'doctor --db a text file',
        (dir: string) => w(path.join(dir, 'store.db'), 'not a database\n'),
      ],
      [
        'doctor-directory',
        'doctor --db a folder',
        (dir: string) => (mkdirSync(path.join(dir, 'store.db')), path.join(dir, 'store.db')),
      ],
      ['doctor-dev-zero', 'doctor --db /dev/zero', () => '/dev/zero'],
    ] as const
  ).map(([id, what, make]): Case => ({
    id,
    what,
    fromIssue: true,
    setup: (dir) => {
      const target = make(dir);
      return {
        steps: [['doctor', '--db', target]],
        expect: 'refuse',
        protect: target.startsWith('/dev') ? [] : [target],
      };
    },
  })),
  {
    id: 'doctor-read-only',
    what: 'doctor --db a read-only store (chattr +i as root, chmod otherwise)',
    fromIssue: true,
    setup: (dir) => {
      const db = path.join(dir, 'ro', 'store.db');
      mkdirSync(path.dirname(db));
      copyFileSync(BASE_DB, db);
      const ro = makeReadOnly(db);
      return {
        steps: [['doctor', '--db', db]],
        expect: 'refuse',
        after: () => {
          if (!('unavailable' in ro)) ro.undo();
          return Promise.resolve({});
        },
      };
    },
  },
  {
    id: 'folder-import-symlink',
    what: 'import a folder whose only profile is a symlink to a valid profile',
    fromIssue: true,
    setup: (dir) => {
      const real = w(path.join(dir, 'real.json'), encodeProfile(nodeProfile('linked-node')));
      const folder = path.join(dir, 'folder');
      mkdirSync(folder);
      symlinkSync(real, path.join(folder, 'node.json'));
      return {
        // Links in a folder are not followed (a link to /etc/shadow would be read); the skip is named.
        steps: [['import', folder]],
        expect: 'refuse',
        after: async (db, r) => {
          const said = /skipped.*symbolic link/i.test((r.stdout + r.stderr).split(WORK).join(''));
          return { messageProblem: said ? null : 'the symlink was skipped without a word' };
        },
      };
    },
  },
  {
    id: 'nccl-nan',
    what: '--nccl output with "nan" times',
    fromIssue: true,
    setup: (dir) => {
      const nccl = w(
        path.join(dir, 'nccl.txt'),
        ncclTwoRanks('n1', 3).replace(/(\n\s+\d+\s+\d+\s+float\s+sum\s+-1\s+)\S+/g, '$1nan'),
      );
      const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('n1', { gpus: 2 })));
      return {
        steps: [
          ['import', a],
          [...PLAN, '--machine', 'n1', '--nccl', nccl],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'link-0GBps',
    what: 'links file "* * 0GB/s@5us"',
    fromIssue: true,
    setup: (dir) => {
      const links = w(path.join(dir, 'links.txt'), '* * 0GB/s@5us\n');
      const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('n1')));
      const b = w(path.join(dir, 'b.json'), encodeProfile(nodeProfile('n2')));
      return {
        steps: [
          ['import', a],
          ['import', b],
          [...PLAN, '--machine', 'n*', '--links', links],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'serve-path-exists',
    what: 'serve: workload:add {path:"/etc/shadow"} vs a missing path: same answer?',
    fromIssue: true,
    setup: () => ({ steps: [], expect: 'refuse', custom: servePathCase }),
  },
  {
    id: 'serve-upload-quota',
    what: 'serve: more uploads than UPLOAD_LIMITS.files (64 KiB each) in a row: refused at some point?',
    fromIssue: true,
    setup: () => ({ steps: [], expect: 'refuse', custom: serveUploadCase }),
  },
  {
    id: 'serve-json-body-at-cap',
    what: 'serve: a JSON body just under MAX_BODY_BYTES (workload:add with garbage dataBase64); server memory and machine:list meanwhile',
    fromIssue: false,
    setup: () => ({ steps: [], expect: 'refuse', custom: serveJsonBodyCase }),
  },
  {
    id: 'serve-list-while-compare',
    what: 'serve: machine:list latency while machine:compare prices a 200k-node workload',
    fromIssue: true,
    setup: () => ({ steps: [], expect: 'succeed', custom: serveLatencyCase }),
  },
  // ---------- 20+ more of the same kind ----------
  {
    id: 'label-esc',
    what: 'machine label with ESC[2J and BEL -> import',
    fromIssue: false,
    setup: (dir) => ({
      steps: [
        ['import', w(path.join(dir, 'p.json'), encodeProfile(nodeProfile('n1', { label: 'n1\u001b[2J\u0007' })))],
      ],
      expect: 'refuse',
    }),
  },
  {
    id: 'label-nul',
    what: 'machine label with NUL -> import',
    fromIssue: false,
    setup: (dir) => ({
      steps: [['import', w(path.join(dir, 'p.json'), encodeProfile(nodeProfile('n1', { label: 'n1\u0000x' })))]],
      expect: 'refuse',
    }),
  },
  {
    id: 'label-10MB',
    what: 'machine label of 10 MB -> import',
    fromIssue: false,
    setup: (dir) => ({
      steps: [
        ['import', w(path.join(dir, 'p.json'), JSON.stringify(nodeProfile('n1', { label: 'x'.repeat(10 * 2 ** 20) })))],
      ],
      expect: 'refuse',
    }),
  },
  {
    id: 'profile-10k-devices',
    what: 'profile with 10,000 devices -> import',
    fromIssue: false,
    setup: (dir) => {
      const p = nodeProfile('many');
      const d = p.devices[0]!;
      p.devices = Array.from({ length: 10_000 }, (_, i) => ({ ...d, key: `cuda:${i}` }));
      return { steps: [['import', w(path.join(dir, 'p.json'), JSON.stringify(p))]], expect: 'refuse' };
    },
  },
  {
    id: 'profile-duplicate-devices',
    what: 'profile with the same device key twice -> import',
    fromIssue: false,
    setup: (dir) => {
      const p = nodeProfile('dup');
      p.devices = [...p.devices, p.devices[p.devices.length - 1]!];
      return { steps: [['import', w(path.join(dir, 'p.json'), JSON.stringify(p))]], expect: 'refuse' };
    },
  },
  {
    id: 'json-nested-100k',
    what: 'a "profile" of 100,000 nested arrays -> import',
    fromIssue: false,
    setup: (dir) => {
      const f = path.join(dir, 'deep.json');
      deepJson(f, 100_000);
      return { steps: [['import', f]], expect: 'refuse' };
    },
  },
  {
    id: 'import-one-brace',
    what: 'a profile that is "{" -> import',
    fromIssue: false,
    setup: (dir) => ({ steps: [['import', w(path.join(dir, 'p.json'), '{')]], expect: 'refuse' }),
  },
  {
    id: 'batch-1e18',
    what: 'plan --batch 1e18',
    fromIssue: false,
    setup: () => ({
      steps: [['plan', '--workload', 'gpt2-small', '--devices', 'cpu', '--batch', '1e18']],
      expect: 'refuse',
    }),
  },
  {
    id: 'batch-nan',
    what: 'plan --batch NaN',
    fromIssue: false,
    setup: () => ({
      steps: [['plan', '--workload', 'gpt2-small', '--devices', 'cpu', '--batch', 'NaN']],
      expect: 'refuse',
    }),
  },
  {
    id: 'seq-negative',
    what: 'predict-model gpt2-small --seq -1',
    fromIssue: false,
    setup: () => ({ steps: [['predict-model', 'gpt2-small', '--device', 'cpu', '--seq', '-1']], expect: 'refuse' }),
  },
  {
    id: 'seq-huge',
    what: 'plan --seq 1e15 --mode inference',
    fromIssue: false,
    setup: () => ({
      steps: [
        ['plan', '--workload', 'gpt2-small', '--devices', 'cpu', '--mode', 'inference', '--seq', '1000000000000000'],
      ],
      expect: 'refuse',
    }),
  },
  {
    id: 'tp-nan',
    what: 'plan --tp NaN,-1',
    fromIssue: false,
    setup: () => ({ steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--tp', 'NaN,-1']], expect: 'refuse' }),
  },
  {
    id: 'plan-no-fit-huge',
    what: 'plan llama-3.1-70b training at batch 65536 x 1M tokens on 8 H100 (nothing fits; the suggestions search)',
    fromIssue: false,
    setup: () => ({
      steps: [
        [
          'plan',
          '--workload',
          'llama-3.1-70b',
          '--devices',
          'none',
          '--mode',
          'training',
          '--virtual',
          '8xH100 SXM5',
          '--batch',
          '65536',
          '--seq',
          '1048576',
        ],
      ],
      expect: 'refuse',
    }),
  },
  {
    id: 'virtual-huge-count',
    what: 'plan --virtual "999999999xH100 SXM5"',
    fromIssue: false,
    setup: () => ({ steps: [[...PLAN, '--virtual', '999999999xH100 SXM5']], expect: 'refuse' }),
  },
  {
    id: 'gguf-array-2^40',
    what: 'GGUF whose token array claims 2^40 strings -> plan',
    fromIssue: false,
    setup: (dir) => {
      const f = w(
        path.join(dir, 'm.gguf'),
        llamaGguf({
          'tokenizer.ggml.tokens': { type: 'array-claim', elemType: GGUF_ARRAY_OF.STRING, length: 2n ** 40n },
        }),
      );
      return planRefused(f);
    },
  },
  {
    id: 'gguf-truncated',
    what: 'GGUF header cut in half -> plan',
    fromIssue: false,
    setup: (dir) => {
      const b = llamaGguf();
      const f = w(path.join(dir, 'm.gguf'), b.subarray(0, Math.floor(b.length / 2)));
      return planRefused(f);
    },
  },
  {
    id: 'gguf-heads-zero',
    what: 'GGUF with head_count 0 -> plan',
    fromIssue: false,
    setup: (dir) => {
      const f = w(path.join(dir, 'm.gguf'), llamaGguf({ 'llama.attention.head_count': { type: 'u32', value: 0 } }));
      return planRefused(f);
    },
  },
  {
    id: 'onnx-external-etc-passwd',
    what: 'ONNX whose initializer lives in external data "../../etc/passwd" -> workload add',
    fromIssue: false,
    setup: (dir) => ({
      steps: [['workload', 'add', w(path.join(dir, 'ext.onnx'), externalDataModel('../../../../../../etc/passwd'))]],
      expect: 'refuse',
    }),
  },
  {
    id: 'onnx-initializer-2^40-bytes',
    what: 'ONNX initializer claiming 2^20 x 2^20 floats (4 TiB) with no data -> workload add',
    fromIssue: false,
    setup: (dir) => ({
      steps: [['workload', 'add', w(path.join(dir, 'big.onnx'), claimedInitializer([2 ** 20, 2 ** 20]))]],
      expect: 'refuse',
    }),
  },
  {
    id: 'onnx-is-directory',
    what: 'workload add a folder named model.onnx',
    fromIssue: false,
    setup: (dir) => {
      mkdirSync(path.join(dir, 'model.onnx'));
      return { steps: [['workload', 'add', path.join(dir, 'model.onnx')]], expect: 'refuse' };
    },
  },
  {
    id: 'links-100k-lines',
    what: 'links file with 100,000 lines',
    fromIssue: false,
    setup: (dir) => {
      const links = w(
        path.join(dir, 'links.txt'),
        Array.from({ length: 100_000 }, (_, i) => `n${i} m${i} 100GbE`).join('\n'),
      );
      const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('n1')));
      const b = w(path.join(dir, 'b.json'), encodeProfile(nodeProfile('n2')));
      return {
        steps: [
          ['import', a],
          ['import', b],
          [...PLAN, '--machine', 'n*', '--links', links],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'links-dev-zero',
    what: '--links /dev/zero',
    fromIssue: false,
    setup: () => ({ steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--links', '/dev/zero']], expect: 'refuse' }),
  },
  {
    id: 'nccl-dev-zero',
    what: '--nccl /dev/zero',
    fromIssue: false,
    setup: () => ({ steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--nccl', '/dev/zero']], expect: 'refuse' }),
  },
  {
    id: 'network-absurd',
    what: '--network 99999999999999999999GB/s@1e9us',
    fromIssue: false,
    setup: (dir) => {
      const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('n1')));
      const b = w(path.join(dir, 'b.json'), encodeProfile(nodeProfile('n2')));
      return {
        steps: [
          ['import', a],
          ['import', b],
          [...PLAN, '--machine', 'n*', '--network', '99999999999999999999GB/s'],
        ],
        expect: 'refuse',
      };
    },
  },
  {
    id: 'emit-dev-null',
    what: 'plan --emit /dev/null',
    fromIssue: false,
    setup: () => ({ steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--emit', '/dev/null']], expect: 'refuse' }),
  },
  {
    id: 'emit-into-file',
    what: 'plan --emit FILE (an existing regular file)',
    fromIssue: false,
    setup: (dir) => {
      const f = w(path.join(dir, 'plan.txt'), 'keep me\n');
      return { steps: [[...PLAN, '--virtual', '2xH100 SXM5', '--emit', f]], expect: 'refuse', protect: [f] };
    },
  },
  {
    id: 'db-is-fifo',
    what: 'machines --db a FIFO',
    fromIssue: false,
    setup: (dir) => {
      const fifo = path.join(dir, 'fifo.db');
      runSync('mkfifo', [fifo]);
      return { steps: [['machines', '--db', fifo]], expect: 'refuse' };
    },
  },
  {
    id: 'profile-huge-dimension',
    what: 'profile with a measurement shape of 2^53',
    fromIssue: false,
    setup: (dir) => {
      const p = sampleProfileFile();
      p.machine = { ...p.machine, id: 'd1d1d1d1d1d1d1d1', label: 'dims' };
      p.measurements = p.measurements.map((m) => ({ ...m, shape: { ...m.shape, M: 2 ** 53 } }));
      return { steps: [['import', w(path.join(dir, 'p.json'), JSON.stringify(p))]], expect: 'refuse' };
    },
  },
  // ---------- issue 56, round 3: files of a model folder, header sizes, a 256-GPU plan (h56-paths) ----------
  {
    id: 'st-shard-etc-passwd',
    what: 'model folder whose model.safetensors is a symlink to /etc/passwd -> plan (issue 56)',
    fromIssue: true,
    setup: (dir) => {
      const folder = modelFolder(dir);
      symlinkSync('/etc/passwd', path.join(folder, 'model.safetensors'));
      return {
        steps: [[...FOLDER_PLAN, folder]],
        expect: 'refuse',
        after: async (_db, r) => ({ leak: passwdLeak(r) }),
      };
    },
  },
  {
    id: 'st-shard-secret-marker',
    what: 'model folder whose shard links to a file with a secret marker outside the folder -> workload add (issue 56)',
    fromIssue: true,
    setup: (dir) => {
      const folder = modelFolder(dir);
      const secret = path.join(dir, 'private', 'secret.safetensors');
      mkdirSync(path.dirname(secret));
      // Today's reader would name its tensor in the error: the marker is the tensor's name.
      writeSafetensorsFile(secret, { [SECRET_MARKER]: { dtype: 'X', shape: [1], data_offsets: [0, 1] } }, 1);
      symlinkSync(secret, path.join(folder, 'model.safetensors'));
      return {
        steps: [['workload', 'add', folder]],
        expect: 'refuse',
        after: async (_db, r) => ({ leak: markerLeak(r, SECRET_MARKER) }),
      };
    },
  },
  {
    id: 'st-config-proc-environ',
    what: "model folder whose config.json is a symlink to /proc/self/environ -> plan (the CLI's own environment)",
    fromIssue: false,
    setup: (dir) => {
      const folder = path.join(dir, 'model');
      mkdirSync(folder);
      symlinkSync('/proc/self/environ', path.join(folder, 'config.json'));
      return {
        steps: [[...FOLDER_PLAN, folder]],
        expect: 'refuse',
        after: async (_db, r) => ({ leak: environLeak(r) }),
      };
    },
  },
  {
    id: 'st-folder-named-safetensors',
    what: 'model folder holding a folder named x.safetensors -> workload add (issue 56)',
    fromIssue: true,
    setup: (dir) => {
      const folder = modelFolder(dir);
      mkdirSync(path.join(folder, 'x.safetensors'));
      return {
        steps: [['workload', 'add', folder]],
        expect: 'refuse',
        after: async (_db, r) => ({
          messageProblem: /x\.safetensors is a folder/.test(firstLine(r)) ? null : 'does not say it is a folder',
        }),
      };
    },
  },
  {
    id: 'st-header-1M-tensors',
    what: 'safetensors header of 1,000,000 tensors (~70 MB) -> workload add (issue 56: 5.1 s, 854 MiB then)',
    fromIssue: true,
    setup: (dir) => {
      const folder = modelFolder(dir);
      writeManyTensorSafetensors(path.join(folder, 'model.safetensors'), 1_000_000);
      return {
        steps: [['workload', 'add', folder]],
        expect: 'refuse',
        after: async (_db, r) => ({ messageProblem: r.wallS > 5 ? `slow refusal (${r.wallS.toFixed(1)} s)` : null }),
      };
    },
  },
  {
    id: 'st-header-300k-tensors',
    what: 'safetensors header of 300,000 tensors within the byte cap (~22 MB) -> workload add: refused by its count',
    fromIssue: false,
    setup: (dir) => {
      const folder = modelFolder(dir);
      writeManyTensorSafetensors(path.join(folder, 'model.safetensors'), 300_000, { prefix: 't' });
      return {
        steps: [['workload', 'add', folder]],
        expect: 'refuse',
        after: async (_db, r) => ({
          messageProblem: /more than 100,000 tensors/.test(firstLine(r)) ? null : 'not refused by its tensor count',
        }),
      };
    },
  },
  {
    id: 'st-headers-at-caps',
    what: 'model folder of 4 shards at the caps: 100,000 tensors a header, 400,000 and ~99 MiB of headers in all -> workload add',
    fromIssue: false,
    setup: (dir) => {
      const folder = modelFolder(dir);
      for (const shard of ['a', 'b', 'c', 'd'])
        writeManyTensorSafetensors(path.join(folder, `${shard}.safetensors`), SAFETENSORS_LIMITS.tensorsPerFile, {
          prefix: shard,
          // Four headers as large as the model's cap lets them be together.
          headerBytes: Math.floor(SAFETENSORS_LIMITS.modelHeaderBytes / 4) - 4096,
        });
      return {
        steps: [['workload', 'add', folder]],
        expect: 'succeed',
        after: async (_db, r) => ({ messageProblem: r.code === 0 ? null : 'refused a folder within the caps' }),
      };
    },
  },
  {
    id: 'plan-256-h100-qlora',
    what: 'plan llama-3.1-70b --mode finetune --adapter qlora on 256 datasheet H100s (issue 56: 12.8 s then)',
    fromIssue: true,
    setup: () => ({
      steps: [
        [
          ...['plan', '--workload', 'llama-3.1-70b', '--mode', 'finetune', '--adapter', 'qlora'],
          ...['--virtual', '256xH100 SXM5', '--devices', 'none'],
        ],
      ],
      expect: 'succeed',
      after: async (_db, r) => ({
        messageProblem: r.code === 0 && r.wallS > 5 ? `slow plan (${r.wallS.toFixed(1)} s)` : null,
      }),
    }),
  },
  // ---------- issue 56 (HTTP): bare workload names, deep JSON bodies, cancel ----------
  {
    id: 'serve-workload-bare-names',
    what: 'serve in a folder holding config.json, sub/ and broken/: every workload channel with ".", "..", "config.json", "sub", "broken" and the folder path',
    fromIssue: false,
    setup: () => ({ steps: [], expect: 'refuse', custom: serveBareNamesCase }),
  },
  {
    id: 'serve-json-deep-8M',
    what: 'serve: a JSON body of 8 million nested arrays (under MAX_BODY_BYTES); server memory before, peak and after, app:info meanwhile',
    fromIssue: false,
    setup: () => ({ steps: [], expect: 'refuse', custom: serveDeepJsonCase }),
  },
  {
    id: 'serve-cancel-plan',
    what: 'serve: job:cancel on a plan of Llama 3.1 70B training on 64 datasheet H100s; time to cancelled, runner gone, never done',
    fromIssue: false,
    setup: () => ({ steps: [], expect: 'succeed', custom: serveCancelPlanCase }),
  },
  {
    id: 'serve-hf-upload',
    what: 'serve: workload:add hfFolder with a config that is not JSON, "../" and newline file names, 150,000 tensors in a header, offsets past the file, 4,097 files; then a good folder fitted and planned by name',
    fromIssue: false,
    setup: () => ({ steps: [], expect: 'succeed', custom: serveHfUploadCase }),
  },
  // ---------- issue 56: text printed to the terminal, echoed values, typed config values ----------
  {
    id: 'plan-folder-newline-summary',
    what: 'model folder "llama\\nBest plan: FAKE" -> plan; the summary line must stay one line',
    fromIssue: false,
    setup: (dir) => {
      const folder = namedModelFolder(dir, `llama\n${FAKE_LINE}`, LLAMA_31_8B);
      return {
        steps: [['plan', '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference']],
        expect: 'succeed',
        after: async (_db, r) => ({ messageProblem: fakedLines(r) }),
      };
    },
  },
  {
    id: 'layout-10000-chars',
    what: 'plan --layout of 10,000 characters',
    fromIssue: false,
    setup: () => ({
      steps: [[...PLAN, '--layout', `tp=${'9'.repeat(9997)}`]],
      expect: 'refuse',
      after: async (_db, r) => ({ messageProblem: longEcho(r) }),
    }),
  },
  {
    id: 'layout-value-190-chars',
    what: 'plan --layout tp=<190 digits> (under the length limit): the value echoed cut',
    fromIssue: false,
    setup: () => ({
      steps: [[...PLAN, '--layout', `tp=${'9'.repeat(190)}`]],
      expect: 'refuse',
      after: async (_db, r) => ({ messageProblem: longEcho(r, 120) }),
    }),
  },
  {
    id: 'weights-10000-chars',
    what: 'plan --mode inference --weights of 10,000 characters',
    fromIssue: false,
    setup: () => ({
      steps: [[...PLAN, '--mode', 'inference', '--weights', 'q'.repeat(10_000)]],
      expect: 'refuse',
      after: async (_db, r) => ({ messageProblem: longEcho(r) }),
    }),
  },
  {
    id: 'fit-mode-10000-chars',
    what: 'fit gpt2-small --mode of 10,000 characters',
    fromIssue: false,
    setup: () => ({
      steps: [['fit', 'gpt2-small', '--mode', 'x'.repeat(10_000)]],
      expect: 'refuse',
      after: async (_db, r) => ({ messageProblem: longEcho(r) }),
    }),
  },
  {
    id: 'config-hidden-size-string',
    what: 'config.json with "hidden_size": "512" (a string) -> plan',
    fromIssue: false,
    setup: (dir) => {
      const folder = namedModelFolder(dir, 'string-hidden', { ...LLAMA_31_8B, hidden_size: '512' });
      return {
        steps: [['plan', '--workload', folder, '--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference']],
        expect: 'refuse',
        after: async (_db, r) => ({
          messageProblem: /out of range/.test(r.stderr)
            ? 'calls a string out of range'
            : /must be a number .*got the string "512"/.test(r.stderr)
              ? null
              : 'does not say the value is a string',
        }),
      };
    },
  },
];

// ---------- issue 56 (h56-paths): model folders ----------

const FOLDER_PLAN = ['plan', '--devices', 'none', '--virtual', 'RTX 4090', '--mode', 'inference', '--workload'];
const SECRET_MARKER = 'SECRET-MARKER-h56-9d2e';

/** A Hugging Face model folder with Llama 3.1 8B's config.json and no weights. */
function modelFolder(dir: string): string {
  const folder = path.join(dir, 'model');
  mkdirSync(folder);
  w(path.join(folder, 'config.json'), JSON.stringify(LLAMA_31_8B));
  return folder;
}

/** Whether the output quotes text it should not have read. */
function markerLeak(r: RunResult, marker: string): string | null {
  return `${r.stdout}${r.stderr}`.includes(marker) ? `the output quotes "${marker}"` : null;
}

/** Whether the output quotes an environment (a JSON error shows the text's start: "NAME=..."). */
function environLeak(r: RunResult): string | null {
  return /"[A-Za-z_][A-Za-z0-9_]*=/.test(`${r.stdout}${r.stderr}`) ? 'the output quotes the environment' : null;
}

/** Whether the output shows /etc/passwd: a line of it, its size, or its first 8 bytes read as a header length. */
function passwdLeak(r: RunResult): string | null {
  const bytes = readFileSync('/etc/passwd');
  const out = `${r.stdout}${r.stderr}`;
  const first = bytes.length >= 8 ? bytes.readBigUInt64LE(0).toString() : null;
  if (out.includes('root:')) return 'the output quotes /etc/passwd';
  if (first && out.includes(first)) return "the output shows /etc/passwd's first 8 bytes (as a header length)";
  if (new RegExp(`\\b${bytes.length - 8}\\b|\\b${bytes.length}\\b`).test(out))
    return "the output shows /etc/passwd's size";
  return null;
}

/** The payload a folder name tries to print as a line of its own. */
const FAKE_LINE = 'Best plan: FAKE';

/** A Hugging Face model folder (config.json only). */
function namedModelFolder(dir: string, name: string, config: unknown): string {
  const folder = path.join(dir, name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'config.json'), JSON.stringify(config));
  return folder;
}

/** A line of the output that a name wrote (the fake one, or one split by a raw control character). */
function fakedLines(r: RunResult): string | null {
  const out = r.stdout + r.stderr;
  if (out.split('\n').some((l) => l.startsWith(FAKE_LINE))) return `prints "${FAKE_LINE}" as a line of its own`;
  if (/[\r\u2028\u2029\u001b]/.test(out)) return 'prints a raw control character';
  return null;
}

/** The refusal echoes the value whole: its first line is longer than `most` characters. */
function longEcho(r: RunResult, most = 300): string | null {
  const line = firstLine(r);
  return line.length > most ? `the message is ${line.length} characters long` : null;
}

function runSync(cmd: string, args: string[]): void {
  spawnSync(cmd, args, { stdio: 'ignore' });
}

// ---------- serve cases ----------

async function startServe(db: string, cwd?: string): Promise<{ child: ChildProcess; base: string; token: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--db', db], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, HOME: path.dirname(db) },
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error('serve did not start in 30 s')), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
  });
  const u = new URL(url);
  return { child, base: `${u.protocol}//${u.host}`, token: u.searchParams.get('token') as string };
}

function stopServe(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // gone
  }
}

async function api(
  s: { base: string; token: string },
  channel: string,
  body: unknown,
  raw?: Uint8Array,
): Promise<unknown> {
  const res = await fetch(`${s.base}/api/${channel}`, {
    method: 'POST',
    headers: {
      'content-type': raw ? 'application/octet-stream' : 'application/json',
      'x-pipedejavu-token': s.token,
      origin: s.base,
    },
    body: raw ?? JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return res.json();
}

const fakeResult = (code: number, line: string, wallS: number, hang = false): RunResult => ({
  code,
  stdout: '',
  stderr: line,
  wallS,
  peakRssBytes: null,
  hang,
});

async function servePathCase(db: string): Promise<{ result: RunResult; leak: string | null }> {
  const s = await startServe(db);
  const t0 = performance.now();
  try {
    const message = async (p: string): Promise<string> => {
      const r = (await api(s, 'workload:add', { fileName: 'x.onnx', path: p })) as { error?: { message?: string } };
      return (r.error?.message ?? JSON.stringify(r)).split(p).join('PATH');
    };
    const [shadow, missing, folder] = [
      await message('/etc/shadow'),
      await message('/nonexistent/x.onnx'),
      await message('/etc'),
    ];
    const same = shadow === missing && missing === folder;
    return {
      result: fakeResult(1, `pipedejavu: error: ${shadow}`, (performance.now() - t0) / 1000),
      leak: same ? null : `answers differ: "${shadow}" / "${missing}" / "${folder}"`,
    };
  } finally {
    stopServe(s.child);
  }
}

async function serveUploadCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const s = await startServe(db);
  const t0 = performance.now();
  try {
    // More uploads than a server keeps (UPLOAD_LIMITS.files): each small, so the count is what is tested.
    const chunk = new Uint8Array(64 * 1024);
    const tries = UPLOAD_LIMITS.files + 6;
    for (let i = 0; i < tries; i++) {
      const r = (await api(s, 'upload', null, chunk)) as { ok?: boolean; error?: { message?: string } };
      if (!r.ok)
        return {
          result: fakeResult(1, `upload ${i + 1}: ${r.error?.message ?? 'refused'}`, (performance.now() - t0) / 1000),
          messageProblem: null,
        };
    }
    return {
      result: fakeResult(0, `all ${tries} uploads accepted`, (performance.now() - t0) / 1000),
      messageProblem: 'no quota',
    };
  } finally {
    stopServe(s.child);
  }
}

/** A reply of the server as a sender child saw it. */
interface SentReply {
  status: number;
  json: { ok?: boolean; error?: { message?: string } };
}

/**
 * POSTs a body that `bodyJs` (JavaScript evaluating to a string or Buffer) builds, from another
 * process: building and sending 16 MiB here would stall this process's own latency probes. Resolves
 * once the child is about to send; `reply` then settles with the answer, `answeredMs` after sending.
 */
async function sendFromChild(
  s: { base: string; token: string },
  channel: string,
  bodyJs: string,
): Promise<{ reply: Promise<SentReply & { answeredMs: number }> }> {
  const sender = `const body = ${bodyJs};
      process.stdout.write('sending\\n');
      const r = await fetch(${JSON.stringify(`${s.base}/api/${channel}`)}, { method: 'POST', body,
        headers: { 'content-type': 'application/json', 'x-pipedejavu-token': ${JSON.stringify(s.token)}, origin: ${JSON.stringify(s.base)} } });
      process.stdout.write(JSON.stringify({ status: r.status, json: await r.json() }) + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', sender], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve) => {
    const check = (): void => (out.includes('sending') ? resolve() : void setTimeout(check, 5));
    check();
  });
  const t0 = performance.now();
  const reply = new Promise<SentReply & { answeredMs: number }>((resolve, reject) => {
    child.on('close', () => {
      try {
        resolve({ ...(JSON.parse(out.split('\n')[1] ?? '') as SentReply), answeredMs: performance.now() - t0 });
      } catch {
        reject(new Error(`the sender said: ${out.slice(0, 200)}`));
      }
    });
  });
  return { reply };
}

async function serveJsonBodyCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const s = await startServe(db);
  const t0 = performance.now();
  try {
    const { reply } = await sendFromChild(
      s,
      'workload:add',
      `'{"fileName":"x.onnx","dataBase64":"' + 'QUFB'.repeat(${Math.floor((MAX_BODY_BYTES - 40) / 4)}) + '"}'`,
    );
    const add = reply.then((x) => x.json);
    let worst = 0;
    let done = false;
    void add.finally(() => (done = true));
    while (!done) {
      const q = performance.now();
      await api(s, 'machine:list', {});
      worst = Math.max(worst, performance.now() - q);
      await new Promise((r) => setTimeout(r, 50));
    }
    const r = await add;
    const peak = s.child.pid ? peakRss(s.child.pid) : 0;
    const line = `${r.ok ? 'accepted' : `pipedejavu: error: ${r.error?.message ?? '?'}`}; machine:list worst ${worst.toFixed(0)} ms meanwhile`;
    return {
      result: { ...fakeResult(r.ok ? 0 : 1, line, (performance.now() - t0) / 1000), peakRssBytes: peak || null },
      messageProblem: worst > 100 ? `machine:list took ${worst.toFixed(0)} ms meanwhile` : null,
    };
  } finally {
    stopServe(s.child);
  }
}

async function serveLatencyCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const dir = path.dirname(db);
  const model = w(path.join(dir, 'relu.onnx'), reluChain(200_000));
  const a = w(path.join(dir, 'a.json'), encodeProfile(nodeProfile('n1')));
  await cli(db, ['import', a]);
  await cli(db, ['workload', 'add', model, '--name', 'relu'], 120_000);
  const s = await startServe(db);
  const t0 = performance.now();
  try {
    const list = (await api(s, 'machine:list', {})) as { value?: { id: string }[] };
    const ids = (list.value ?? []).map((m) => m.id);
    const compare = api(s, 'machine:compare', { machines: ids.slice(0, 2), workload: 'relu' }).catch(() => null);
    await new Promise((r) => setTimeout(r, 100));
    let worst = 0;
    for (let i = 0; i < 20; i++) {
      const q = performance.now();
      await api(s, 'machine:list', {});
      worst = Math.max(worst, performance.now() - q);
      await new Promise((r) => setTimeout(r, 50));
    }
    await compare;
    const line = `worst machine:list ${worst.toFixed(0)} ms while machine:compare ran`;
    return {
      result: fakeResult(0, line, (performance.now() - t0) / 1000, worst > 10_000),
      messageProblem: worst > 100 ? `over 100 ms (${worst.toFixed(0)} ms)` : null,
    };
  } finally {
    stopServe(s.child);
  }
}

// ---------- issue 56 (HTTP) cases ----------

/** Resident memory of one process now (VmRSS), bytes, or 0. */
function rssNow(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The children of a process now (Linux /proc), with their command lines. */
function childrenOf(pid: number): { pid: number; cmd: string }[] {
  const out: { pid: number; cmd: string }[] = [];
  try {
    for (const t of readdirSync(`/proc/${pid}/task`)) {
      const kids = readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').trim();
      for (const k of kids ? kids.split(/\s+/).map(Number) : []) {
        try {
          out.push({ pid: k, cmd: readFileSync(`/proc/${k}/cmdline`, 'utf8').replace(/\0/g, ' ') });
        } catch {
          // gone
        }
      }
    }
  } catch {
    // gone
  }
  return out;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const MiB = (bytes: number): number => Math.round(bytes / 2 ** 20);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A small Llama config.json whose name and sizes an answer must not give back. */
const baitConfig = (): string =>
  JSON.stringify({
    architectures: ['LlamaForCausalLM'],
    model_type: 'llama',
    hidden_size: 512,
    intermediate_size: 1024,
    num_attention_heads: 8,
    num_hidden_layers: 2,
    num_key_value_heads: 8,
    vocab_size: 1000,
    max_position_embeddings: 2048,
    _name_or_path: 'org/BAIT-NAME',
  });

/**
 * serve started in a folder holding a config.json, a model folder and a broken one: every channel
 * that takes a workload, with bare names and the folder's path. One fixed line expected from all,
 * without a parameter count, the folder's name or a file's content; no job started.
 */
async function serveBareNamesCase(db: string): Promise<{ result: RunResult; leak: string | null }> {
  const cwd = path.join(path.dirname(path.dirname(db)), 'server-cwd-FOLDERNAME');
  mkdirSync(path.join(cwd, 'sub'), { recursive: true });
  mkdirSync(path.join(cwd, 'broken'));
  writeFileSync(path.join(cwd, 'config.json'), baitConfig());
  writeFileSync(path.join(cwd, 'sub', 'config.json'), baitConfig());
  writeFileSync(path.join(cwd, 'broken', 'config.json'), 'BAIT-CONTENT is not JSON');
  const s = await startServe(db, cwd);
  const t0 = performance.now();
  try {
    const requests: [string, (w: string) => unknown][] = [
      ['workload:fit', (w) => ({ workload: w, mode: 'inference' })],
      ['workload:predict', (w) => ({ workload: w, mode: 'inference' })],
      ['workload:measure', (w) => ({ workload: w })],
      ['machine:compare', (w) => ({ machines: ['a', 'b'], workload: w })],
      ['plan:create', (w) => ({ workload: w, batch: 1, devices: 'none', mode: 'inference', virtual: ['H100 SXM5'] })],
    ];
    const answers = new Map<string, string[]>();
    const problems: string[] = [];
    for (const spec of ['.', '..', 'config.json', 'sub', 'broken', cwd]) {
      for (const [channel, req] of requests) {
        const text = JSON.stringify(await api(s, channel, req(spec)));
        const key = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
        answers.set(key, [...(answers.get(key) ?? []), `${channel} ${spec === cwd ? 'CWD' : spec}`]);
        for (const told of ['FOLDERNAME', 'BAIT-', '"params"'])
          if (text.includes(told)) problems.push(`${channel} "${spec === cwd ? 'CWD' : spec}" told ${told}`);
      }
    }
    const jobs = (await api(s, 'job:list', {})) as { value?: unknown[] };
    if ((jobs.value ?? []).length > 0) problems.push(`${jobs.value?.length} job(s) started`);
    if (answers.size > 1) problems.push(`${answers.size} different answers`);
    const [line] = [...answers.keys()];
    return {
      result: fakeResult(1, `pipedejavu: error: ${line ?? '?'}`, (performance.now() - t0) / 1000),
      leak: problems.length ? problems.slice(0, 4).join('; ') : null,
    };
  } finally {
    stopServe(s.child);
  }
}

/**
 * serve sent a body of 8 million nested arrays (16 MiB, under the cap) for app:info. The server's
 * memory before, at its peak (VmHWM) and 2 s after; app:info asked every 20 ms meanwhile.
 */
async function serveDeepJsonCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const s = await startServe(db);
  const pid = s.child.pid as number;
  try {
    // app:info's latency on this machine as it is, without the body: the figure below is read against it.
    const quiet: number[] = [];
    for (let i = 0; i < 40; i++) {
      const q = performance.now();
      await api(s, 'app:info', {});
      quiet.push(performance.now() - q);
      await sleep(20);
    }
    quiet.sort((a, b) => a - b);
    await sleep(500);
    const before = rssNow(pid);
    const n = Math.floor((MAX_BODY_BYTES - 16) / 2);
    const { reply: deep } = await sendFromChild(s, 'app:info', `Buffer.from('['.repeat(${n}) + ']'.repeat(${n}))`);
    const during: number[] = [];
    let done = false;
    void deep.finally(() => (done = true));
    while (!done) {
      const q = performance.now();
      await api(s, 'app:info', {});
      during.push(performance.now() - q);
      await sleep(20);
    }
    during.sort((a, b) => a - b);
    const worst = during[during.length - 1] ?? 0;
    const median = during[Math.floor(during.length / 2)] ?? 0;
    const r = await deep;
    const answeredMs = r.answeredMs;
    const peak = peakRss(pid);
    await sleep(2000);
    const after = rssNow(pid);
    const line = r.json.ok ? 'accepted' : `pipedejavu: error: ${r.json.error?.message ?? '?'} (HTTP ${r.status})`;
    const figures = `sent and answered in ${answeredMs.toFixed(0)} ms; RSS ${MiB(before)} MiB before, peak ${MiB(peak)}, ${MiB(after)} 2 s after; app:info median ${median.toFixed(1)}, worst ${worst.toFixed(1)} ms of ${during.length} meanwhile (without the body: median ${(quiet[20] ?? 0).toFixed(1)}, worst ${(quiet[39] ?? 0).toFixed(1)} ms of 40)`;
    process.stdout.write(`  serve-json-deep-8M: ${figures}\n`);
    const problems = [
      // The machine's own stalls (a busy CI box) show without the body too: only what the body adds counts.
      median > 100 || (worst > 100 && worst > 2 * (quiet[39] ?? 0))
        ? `app:info took ${worst.toFixed(0)} ms meanwhile (median ${median.toFixed(0)})`
        : '',
      after > before + 64 * 2 ** 20 ? `memory not back: ${MiB(after)} MiB after, ${MiB(before)} before` : '',
    ].filter(Boolean);
    return {
      result: {
        ...fakeResult(r.json.ok ? 0 : 1, `${line}; ${figures}`, answeredMs / 1000),
        peakRssBytes: peak || null,
      },
      messageProblem: problems.length ? problems.join('; ') : null,
    };
  } finally {
    stopServe(s.child);
  }
}

/**
 * job:cancel on a plan whose search runs seconds in the job runner (synchronous: the runner reads
 * no message until it ends). Time from the cancel to the job's state saying cancelled, whether the
 * runner process is gone, and the state 3 s later (never done).
 */
async function serveCancelPlanCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const s = await startServe(db);
  const pid = s.child.pid as number;
  const t0 = performance.now();
  try {
    const started = (await api(s, 'plan:create', {
      workload: 'llama-3.1-70b',
      batch: 64,
      devices: 'none',
      mode: 'training',
      virtual: Array.from({ length: 64 }, () => 'H100 SXM5'),
    })) as { value?: { jobId: string }; error?: { message?: string } };
    const jobId = started.value?.jobId;
    if (!jobId) throw new Error(`plan:create: ${started.error?.message ?? '?'}`);
    const job = async (): Promise<{ state: string; label: string; error: string | null }> =>
      ((await api(s, 'job:get', { jobId })) as { value: { state: string; label: string; error: string | null } }).value;
    for (let i = 0; i < 500 && (await job()).label !== 'searching plans'; i++) await sleep(20);
    await sleep(500);
    const runner = childrenOf(pid).find((c) => c.cmd.includes('job-runner.js'));
    const stateAtCancel = (await job()).state;
    const c0 = performance.now();
    const answer = (await api(s, 'job:cancel', { jobId })) as { value?: { cancelled: boolean } };
    let state = stateAtCancel;
    while (state === 'running' && performance.now() - c0 < 20_000) {
      await sleep(10);
      state = (await job()).state;
    }
    const tookMs = performance.now() - c0;
    const runnerGone = runner ? !alive(runner.pid) : null;
    await sleep(3000);
    const later = (await job()).state;
    const line = `cancel answered ${JSON.stringify(answer.value)}; state ${state} ${tookMs.toFixed(0)} ms after the cancel; runner ${runner ? (runnerGone ? 'gone' : 'STILL RUNNING') : 'not found'}; 3 s later ${later}`;
    process.stdout.write(`  serve-cancel-plan: ${line}\n`);
    const problems = [
      stateAtCancel !== 'running' ? `the plan was ${stateAtCancel} before the cancel` : '',
      state !== 'cancelled' ? `ended ${state}` : '',
      tookMs > 1000 ? `cancelled after ${tookMs.toFixed(0)} ms` : '',
      runnerGone === false ? 'the runner is still running' : '',
      later !== 'cancelled' ? `3 s later: ${later}` : '',
    ].filter(Boolean);
    return {
      result: { ...fakeResult(0, line, (performance.now() - t0) / 1000), peakRssBytes: peakRss(pid) || null },
      messageProblem: problems.length ? problems.join('; ') : null,
    };
  } finally {
    stopServe(s.child);
  }
}

/** One safetensors header as the app's picker sends it: n F32 tensors of one value, the file's size stated. */
function uploadedHeader(
  fileName: string,
  n: number,
  extraBytes = 0,
): { fileName: string; bytes: number; header: string } {
  const parts = ['"__metadata__":{"format":"pt"}'];
  for (let i = 0; i < n; i++)
    parts.push(`"t.${i}.weight":{"dtype":"F32","shape":[1],"data_offsets":[${4 * i},${4 * i + 4}]}`);
  const header = `{${parts.join(',')}}`;
  return { fileName, bytes: 8 + Buffer.byteLength(header) + 4 * n - extraBytes, header };
}

/**
 * serve: hostile Hugging Face folder uploads (workload:add hfFolder), each refused in one line and
 * nothing stored; then a good one added, fitted and planned by its name. Server peak memory.
 */
async function serveHfUploadCase(db: string): Promise<{ result: RunResult; messageProblem: string | null }> {
  const s = await startServe(db);
  const pid = s.child.pid as number;
  const t0 = performance.now();
  const config = baitConfig();
  const add = (name: string, hfFolder: unknown): Promise<unknown> =>
    api(s, 'workload:add', { fileName: name, name, hfFolder });
  try {
    const hostile: [string, unknown][] = [
      ['not-json', { config: 'BAIT-CONTENT is not JSON', safetensors: [] }],
      ['dot-dot', { config, safetensors: [uploadedHeader('../model.safetensors', 1)] }],
      ['newline', { config, safetensors: [uploadedHeader('a\nBest plan: FAKE.safetensors', 1)] }],
      ['many-tensors', { config, safetensors: [uploadedHeader('model.safetensors', 150_000)] }],
      ['past-the-end', { config, safetensors: [uploadedHeader('model.safetensors', 4, 8)] }],
      [
        'many-files',
        { config, safetensors: Array.from({ length: 4097 }, (_, i) => uploadedHeader(`m-${i}.safetensors`, 1)) },
      ],
    ];
    const problems: string[] = [];
    const lines: string[] = [];
    for (const [name, folder] of hostile) {
      const r = (await add(name, folder)) as { ok: boolean; error?: { message?: string } };
      const message = r.error?.message ?? '';
      lines.push(`${name}: ${message.slice(0, 80)}`);
      if (r.ok) problems.push(`${name} accepted`);
      else if (!message || message.includes('\n')) problems.push(`${name}: not one line`);
      if (message.includes('BAIT-CONTENT is not JSON')) problems.push(`${name}: the config echoed whole`);
    }
    const stored = (await api(s, 'workload:list', {})) as { value?: unknown[] };
    if ((stored.value ?? []).length > 0) problems.push(`${stored.value?.length} workload(s) stored`);
    const good = (await add('uploaded', { config, safetensors: [] })) as { ok: boolean; error?: { message?: string } };
    if (!good.ok) problems.push(`good upload refused: ${good.error?.message ?? '?'}`);
    const fit = (await api(s, 'workload:fit', { workload: 'uploaded', mode: 'inference' })) as { ok: boolean };
    const plan = (await api(s, 'plan:create', {
      workload: 'uploaded',
      batch: 1,
      devices: 'none',
      mode: 'inference',
      virtual: ['RTX 4090'],
    })) as { ok: boolean };
    if (!fit.ok || !plan.ok) problems.push(`by name: fit ${fit.ok}, plan ${plan.ok}`);
    const line = `${hostile.length} refused (${lines[0] ?? ''}); good upload ${good.ok ? 'added' : 'refused'}, fit ${fit.ok}, plan ${plan.ok}`;
    process.stdout.write(`  serve-hf-upload: ${lines.join(' | ')}\n`);
    return {
      result: { ...fakeResult(0, line, (performance.now() - t0) / 1000), peakRssBytes: peakRss(pid) || null },
      messageProblem: problems.length ? problems.join('; ') : null,
    };
  } finally {
    stopServe(s.child);
  }
}

// ---------- driver ----------

async function runCase(c: Case): Promise<Row> {
  const dir = path.join(WORK, c.id);
  mkdirSync(dir, { recursive: true });
  const db = path.join(dir, 'store', 'pipedejavu.db');
  mkdirSync(path.dirname(db));
  copyFileSync(BASE_DB, db);
  const s = await c.setup(dir, db);
  const before = Object.fromEntries((s.protect ?? []).map((f) => [f, fingerprint(f)]));
  let result: RunResult | null = null;
  let extra: { lost?: string | null; leak?: string | null; messageProblem?: string | null } = {};
  if (s.custom) {
    const r = await s.custom(db);
    result = r.result;
    extra = r;
  } else {
    for (const step of s.steps) {
      result = await cli(db, step);
      if (result.code !== 0) break;
    }
  }
  if (s.emitted && result?.code === 0) await runEmitted(s.emitted, dir);
  if (s.after && result) extra = { ...extra, ...(await s.after(db, result)) };
  const after = Object.fromEntries((s.protect ?? []).map((f) => [f, fingerprint(f)]));
  const r = result as RunResult;
  const { verdict, why } = judge({
    result: r,
    expect: s.expect,
    ...(s.marker ? { marker: s.marker } : {}),
    payloadLines: s.emitted && s.payloadStart ? payloadCodeLines(s.emitted, s.payloadStart) : 0,
    protectedBefore: before,
    protectedAfter: after,
    lost: extra.lost ?? null,
    leak: extra.leak ?? null,
    messageProblem: extra.messageProblem ?? null,
  });
  return {
    id: c.id,
    what: c.what,
    fromIssue: c.fromIssue,
    verdict,
    why,
    code: r.code,
    line: firstLine(r).slice(0, 200),
    wallS: Math.round(r.wallS * 10) / 10,
    peakRssMiB: r.peakRssBytes === null ? null : Math.round(r.peakRssBytes / 2 ** 20),
  };
}

function markdown(rows: readonly Row[]): string {
  const esc = (s: string): string =>
    s
      .replace(/\|/g, '\\|')
      .replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const lines = [
    '| case | input | verdict | exit | s | MiB | first line the user reads |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.id}${r.fromIssue ? '' : ' (new)'} | ${esc(r.what)} | ${r.verdict}${r.why ? `: ${esc(r.why)}` : ''} | ${r.code ?? 'killed'} | ${r.wallS} | ${r.peakRssMiB ?? '?'} | ${esc(r.line)} |`,
    ),
  ];
  const bad = rows.filter((r) => r.verdict !== 'ok').length;
  lines.push(
    '',
    `${rows.length} cases (${rows.filter((r) => r.fromIssue).length} from issue 45): ${rows.length - bad} ok, ${bad} not.`,
  );
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const cases = only.length > 0 ? CASES.filter((c) => only.includes(c.id)) : CASES;
  seededDb(BASE_DB).close();
  const train = await cli(BASE_DB, ['train', '--predictor', 'analytical'], 120_000);
  if (train.code !== 0) throw new Error(`train failed: ${firstLine(train)}`);
  const rows: Row[] = [];
  for (const c of cases) {
    let row: Row;
    try {
      row = await runCase(c);
    } catch (e) {
      row = {
        id: c.id,
        what: c.what,
        fromIssue: c.fromIssue,
        verdict: 'NO-MESSAGE',
        why: `bench error: ${String(e)}`,
        code: null,
        line: '',
        wallS: 0,
        peakRssMiB: null,
      };
    }
    rows.push(row);
    process.stdout.write(
      `${row.verdict.padEnd(10)} ${row.id.padEnd(28)} ${String(row.code ?? 'killed').padEnd(6)} ${String(row.wallS).padStart(5)} s ${String(row.peakRssMiB ?? '?').padStart(5)} MiB  ${row.line.slice(0, 110)}\n`,
    );
    rmSync(path.join(WORK, c.id), { recursive: true, force: true });
  }
  process.stdout.write(`\n${markdown(rows)}`);
  if (only.length === 0) {
    // A whole run is kept, dated like the other benches' results; a few cases are only printed.
    const out = path.join(ROOT, 'bench', 'results');
    const base = path.join(out, `hostile-${new Date().toISOString().slice(0, 10)}`);
    mkdirSync(out, { recursive: true });
    writeFileSync(`${base}.json`, `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`);
    writeFileSync(`${base}.md`, markdown(rows));
  }
  rmSync(WORK, { recursive: true, force: true });
}

await main();
