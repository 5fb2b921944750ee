/**
 * The element types pipeDejavu knows, one `as const` table their names, type and subsets derive
 * from, with what each one is as data: a new dtype must state each (a missing field does not
 * compile). The table's order is the order of every list drawn from it (the file format's JSON
 * Schema enum, the predictor's dtype features). Pure.
 */
interface DtypeTraits {
  /** Bytes per element. */
  bytes: number;
  /** A floating-point type: a workload is built in one (`--dtype`). */
  float: boolean;
  /** ONNX Runtime runs kernels in it here, so profiles measure it; fp8 is priced from datasheets only. */
  profiled: boolean;
}

const DTYPES = {
  fp32: { bytes: 4, float: true, profiled: true },
  fp16: { bytes: 2, float: true, profiled: true },
  bf16: { bytes: 2, float: true, profiled: true },
  fp8: { bytes: 1, float: true, profiled: false },
  int8: { bytes: 1, float: false, profiled: true },
  int32: { bytes: 4, float: false, profiled: true },
  int64: { bytes: 8, float: false, profiled: true },
} as const satisfies Record<string, DtypeTraits>;

export type Dtype = keyof typeof DTYPES;
/** Every dtype, in the table's order. */
export const DTYPE_NAMES = Object.keys(DTYPES) as [Dtype, ...Dtype[]];

/** Bytes per element of each dtype. */
export const DTYPE_BYTES: Readonly<Record<Dtype, number>> = Object.fromEntries(
  DTYPE_NAMES.map((d) => [d, DTYPES[d].bytes]),
) as Record<Dtype, number>;

type DtypesWhere<Trait extends keyof DtypeTraits> = {
  [D in Dtype]: (typeof DTYPES)[D][Trait] extends true ? D : never;
}[Dtype];
export type FloatDtype = DtypesWhere<'float'>;
export type ProfiledDtype = DtypesWhere<'profiled'>;

/** The dtypes a workload is built in (`--dtype`, the API's `dtype`), in the table's order. */
export const FLOAT_DTYPES = DTYPE_NAMES.filter((d): d is FloatDtype => DTYPES[d].float) as [
  FloatDtype,
  ...FloatDtype[],
];
/** The dtypes a profile measures kernels in (a predictor's dtype features), in the table's order. */
export const PROFILED_DTYPES = DTYPE_NAMES.filter((d): d is ProfiledDtype => DTYPES[d].profiled) as [
  ProfiledDtype,
  ...ProfiledDtype[],
];
