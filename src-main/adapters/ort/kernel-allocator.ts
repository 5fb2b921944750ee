/**
 * How the child that times micro-kernels allocates memory. glibc hands a large buffer back to the
 * kernel when it is freed and maps a fresh one for the next call, so every run of a kernel with
 * megabytes of inputs or outputs pays the page faults of first touching them again: on a 2-vCPU
 * Zen 5 VM a fault costs about 15 µs, and one run of a 64 MiB Add took 260 ms of wall time for
 * 7.6 ms of kernel (docs/profiling.md, "The profile's own time"). The kernel's time comes from
 * ONNX Runtime's trace, which never sees those faults, so they only spend the kernel's time budget.
 *
 * The kernel child keeps freed memory for reuse (a fixed mmap threshold at glibc's 32 MiB maximum,
 * no trimming) and backs larger buffers with transparent huge pages, where the host allows them.
 * Only that child: whole models, overhead chains and the binding run in a child allocating as a
 * user's process does, since their wall times are what a prediction is checked against.
 * Other C libraries ignore the variable.
 */

/** glibc's tunables for the kernel child (each applied only where the user has not set it). */
const KERNEL_ALLOCATOR_TUNABLES = [
  ['glibc.malloc.mmap_threshold', '33554432'],
  ['glibc.malloc.trim_threshold', '4294967296'],
] as const;

/** The environment of the kernel child: the user's, with the tunables the user has not set. */
export function kernelAllocatorEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const given = (env.GLIBC_TUNABLES ?? '').split(':').filter((t) => t !== '');
  const set = new Set(given.map((t) => t.split('=')[0]));
  const added = KERNEL_ALLOCATOR_TUNABLES.filter(([name]) => !set.has(name)).map(([name, v]) => `${name}=${v}`);
  return { ...env, GLIBC_TUNABLES: [...given, ...added].join(':') };
}
