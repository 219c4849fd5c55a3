-- Dense search per workspace (store.IndexWorkspaces, docs/architecture.md "Postgres projection"): a workspace's
-- vectors are found by this B-tree, and a small workspace is searched exactly through it; a workspace above the
-- size threshold gets an HNSW index of its own (partial, WHERE workspace_id = <it>), so no search walks another
-- workspace's vectors. The store-wide HNSW index of earlier versions is dropped once every large workspace has
-- its own.
CREATE INDEX IF NOT EXISTS claim_vectors_workspace_idx ON claim_vectors (workspace_id);
