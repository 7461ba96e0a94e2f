/** What the export's stream pulls its chunks from, one format each (csv-producer.ts, ndjson-producer.ts). */

export type ExportFormat = 'csv' | 'ndjson';

/** The list's query as the request gave it. */
export type Raw = Record<string, string | string[] | undefined>;

/** The next chunk of the export, or null at the end. */
export type Producer = () => Promise<Buffer | string | null>;
