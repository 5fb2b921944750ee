/** The browser's way to import a profile through `serve`, for the benchmarks: upload the bytes, then import by id. */
export interface Served {
  base: string;
  token: string;
}

export async function uploadAndImport(s: Served, fileName: string, bytes: Uint8Array): Promise<unknown> {
  const headers = { 'x-pipedejavu-token': s.token, origin: s.base };
  const up = (await (
    await fetch(`${s.base}/api/upload`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/octet-stream' },
      body: bytes,
    })
  ).json()) as { ok: boolean; value?: { uploadId: string }; error?: { message: string } };
  if (!up.ok || !up.value) throw new Error(`upload failed: ${up.error?.message ?? '?'}`);
  const res = await fetch(`${s.base}/api/machine:import`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ fileName, uploadId: up.value.uploadId }),
  });
  const r = (await res.json()) as { ok: boolean; error?: { message: string } };
  if (!r.ok) throw new Error(`import through serve failed: ${r.error?.message ?? res.status}`);
  return r;
}
