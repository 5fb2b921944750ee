/** The model description a plan builds on: a GGUF header or fine-tuning target given, else the catalog's entry. Pure. */
import { catalogNames, getCatalogEntry, type CatalogEntry } from '../../catalog/index.js';

/** The decoder the request carries, else the catalog entry of that name; null for other workloads (ONNX files). */
export function plannedModel(decoder: CatalogEntry | undefined, workload: string): CatalogEntry | null {
  return decoder ?? (catalogNames().includes(workload) ? getCatalogEntry(workload) : null);
}
