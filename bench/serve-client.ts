/** The browser's way to import a profile through `serve`, for the benchmarks. */
export interface Served {
  base: string;
  token: string;
}

export async function uploadAndImport(s: Served, fileName: string, bytes: Uint8Array): Promise<unknown> {
  const res = await fetch(`${s.base}/api/machine:import`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pipedejavu-token': s.token, origin: s.base },
    body: JSON.stringify({ fileName, text: new TextDecoder().decode(bytes) }),
  });
  const r = (await res.json()) as { ok: boolean; error?: { message: string } };
  if (!r.ok) throw new Error(`import through serve failed: ${r.error?.message ?? res.status}`);
  return r;
}
