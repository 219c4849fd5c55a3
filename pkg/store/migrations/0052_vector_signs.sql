-- The signs of every claim vector, one bit per dimension (pgvector's binary_quantize), for the dense search of
-- workspaces without an HNSW index of their own (store.DenseBySignsSQL; docs/architecture.md "Postgres
-- projection"). A vector is 2 KB and TOASTed: reading one back costs about 10 µs, so sorting a 1,400-claim
-- workspace by its vectors took several milliseconds, and a workspace growing towards the index threshold under
-- ingest tens. Its signs are 64 bytes kept in the row: the search orders the workspace by the Hamming distance
-- of the signs (under 1 µs a row) and reads back the full vectors of the nearest few hundred only, which it
-- ranks exactly.
--
-- A trigger writes them, so every writer of claim_vectors (the reconciler's COPY, a segment import, a replay, a
-- writer of an earlier version during a rolling upgrade) keeps them complete without knowing of them. They go
-- with their vector (ON DELETE CASCADE: erasure needs nothing more) and, like the vectors, are never updated.
CREATE TABLE IF NOT EXISTS claim_vector_signs (
	claim_id     uuid PRIMARY KEY REFERENCES claim_vectors (claim_id) ON DELETE CASCADE,
	workspace_id text NOT NULL,
	signs        bit varying NOT NULL
);
CREATE INDEX IF NOT EXISTS claim_vector_signs_workspace_idx ON claim_vector_signs (workspace_id);

CREATE OR REPLACE FUNCTION claim_vector_signs_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO claim_vector_signs (claim_id, workspace_id, signs)
	SELECT claim_id, workspace_id, binary_quantize(embedding) FROM written;
	RETURN NULL;
END
$$;

-- One statement-level trigger per COPY or INSERT: the written rows arrive as a transition table.
DROP TRIGGER IF EXISTS claim_vector_signs_write ON claim_vectors;
CREATE TRIGGER claim_vector_signs_write AFTER INSERT ON claim_vectors
	REFERENCING NEW TABLE AS written FOR EACH STATEMENT EXECUTE FUNCTION claim_vector_signs_write();

INSERT INTO claim_vector_signs (claim_id, workspace_id, signs)
SELECT claim_id, workspace_id, binary_quantize(embedding) FROM claim_vectors
ON CONFLICT (claim_id) DO NOTHING;
