-- Full-text search reads the GIN index's pending list, unsorted, on every query: with fastupdate (Postgres'
-- default) the claims a burst of ingest inserts wait there, up to gin_pending_list_limit (4 MB, some 35,000
-- claims of every workspace), until a vacuum or the list's limit merges them. During ingest each of a search's
-- two to four full-text statements then scanned the whole list (8,000 pending claims added 3–5 ms to each).
-- Inserting into the index directly costs about 50 µs more per claim (8,000 claims: 0.47 → 0.87 s), which
-- ingest pays once and searches no longer pay on every query. Entries already pending are merged here.
ALTER INDEX claims_tsv_idx SET (fastupdate = off);
SELECT gin_clean_pending_list('claims_tsv_idx'::regclass);
