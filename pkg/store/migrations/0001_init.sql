-- Mneme projection schema v1. The projection is a deterministic function of the claims stream (plus the keyed
-- judge log): every time stamp below that is part of the projection comes from the log, never from now().

CREATE EXTENSION IF NOT EXISTS vector;

-- Workspaces exist once written to (local development mode) or created by the admin command.
CREATE TABLE workspaces (
    id          text PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    created_by  text NOT NULL
);

-- Bearer keys: only the SHA-256 of a key is stored. agent_id NULL means the key may act as any agent.
CREATE TABLE api_keys (
    key_hash     bytea PRIMARY KEY,
    workspace_id text NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
    agent_id     text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    revoked_at   timestamptz
);

-- Store-wide settings, e.g. the pinned embedding model and dimension (mixing dimensions is refused).
CREATE TABLE store_settings (
    key   text PRIMARY KEY,
    value text NOT NULL
);

-- Claims: immutable content and provenance. Status lives in claim_versions.
CREATE TABLE claims (
    id             uuid PRIMARY KEY,
    workspace_id   text NOT NULL,
    subject_key    text NOT NULL,
    subject        text NOT NULL,
    predicate_key  text NOT NULL,
    predicate      text NOT NULL,
    -- slot_key is the predicate key after paraphrase merging: claims with equal (subject_key, slot_key) compete.
    slot_key       text NOT NULL,
    object         text NOT NULL,
    object_key     text NOT NULL,
    text           text NOT NULL,
    functional     boolean NOT NULL,
    scope          text NOT NULL CHECK (scope IN ('private', 'shared')),
    owner_agent    text NOT NULL,
    confidence     real NOT NULL,
    valid_from     timestamptz NOT NULL,
    sequence       bigint,
    provenance     jsonb NOT NULL,
    partition      int NOT NULL,
    stream_seq     bigint NOT NULL,
    recorded_at    timestamptz NOT NULL,
    tsv            tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED
);
CREATE INDEX claims_slot_idx ON claims (workspace_id, subject_key, slot_key, valid_from);
CREATE INDEX claims_predicate_idx ON claims (workspace_id, predicate_key);
CREATE INDEX claims_owner_idx ON claims (workspace_id, owner_agent);
CREATE INDEX claims_tsv_idx ON claims USING gin (tsv);

-- Embeddings, append-only: rows are inserted once and never updated, so resolution never churns the HNSW
-- index. The HNSW index is created when the store's embedding dimension is pinned (store.PinEmbedding),
-- as an expression index over store.DenseIndexExpr (embedding::halfvec(<dim>)).
CREATE TABLE claim_vectors (
    claim_id  uuid PRIMARY KEY REFERENCES claims(id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    model     text NOT NULL,
    dim       int NOT NULL,
    embedding vector NOT NULL
);

-- Belief versions (bitemporal). Valid time: valid_from/valid_to. Transaction time: recorded_at/retired_at.
-- A change of belief retires the current version (sets retired_at) and appends a new one; content is never
-- overwritten. The current belief about a claim is its version with retired_at IS NULL.
CREATE TABLE claim_versions (
    claim_id     uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    version      int NOT NULL,
    workspace_id text NOT NULL,
    status       text NOT NULL CHECK (status IN ('active', 'superseded', 'disputed', 'pending', 'retracted', 'rejected')),
    valid_from   timestamptz NOT NULL,
    valid_to     timestamptz,
    recorded_at  timestamptz NOT NULL,
    retired_at   timestamptz,
    decision_id  uuid,
    PRIMARY KEY (claim_id, version)
);
CREATE INDEX claim_versions_current_idx ON claim_versions (claim_id) WHERE retired_at IS NULL;
CREATE INDEX claim_versions_ws_status_idx ON claim_versions (workspace_id, status) WHERE retired_at IS NULL;

-- Decision records: the audit trail of every resolution.
CREATE TABLE decisions (
    id             uuid PRIMARY KEY,
    workspace_id   text NOT NULL,
    subject_key    text NOT NULL,
    slot_key       text NOT NULL,
    scope          text NOT NULL,
    owner_agent    text,
    operator       text NOT NULL,
    policy_version text NOT NULL,
    inputs         uuid[] NOT NULL,
    winner         uuid,
    losers         uuid[] NOT NULL DEFAULT '{}',
    outcome        text NOT NULL,
    reason         text NOT NULL,
    judge_key      text,
    decided_at     timestamptz NOT NULL,
    partition      int NOT NULL,
    stream_seq     bigint NOT NULL
);
CREATE INDEX decisions_slot_idx ON decisions (workspace_id, subject_key, slot_key);

-- supersedes edges: claim_id superseded (or rejected) superseded_id by decision_id.
CREATE TABLE supersedes (
    claim_id      uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    superseded_id uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    decision_id   uuid NOT NULL,
    PRIMARY KEY (claim_id, superseded_id)
);
CREATE INDEX supersedes_superseded_idx ON supersedes (superseded_id);

-- Corroborations: one row per independent source (agent, or agent+turn) asserting the same claim content.
CREATE TABLE corroborations (
    claim_id      uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    source        text NOT NULL,
    via_claim_id  uuid NOT NULL,
    recorded_at   timestamptz NOT NULL,
    PRIMARY KEY (claim_id, source)
);

-- Subject aliases, for entity lookup at query time ("Alice Smith" -> alice_smith, "Alice" -> alice_smith).
CREATE TABLE subject_aliases (
    workspace_id text NOT NULL,
    alias        text NOT NULL,
    subject_key  text NOT NULL,
    PRIMARY KEY (workspace_id, alias, subject_key)
);

-- Predicate phrases and their embeddings, for paraphrase merging (append-only).
CREATE TABLE predicates (
    workspace_id  text NOT NULL,
    predicate_key text NOT NULL,
    slot_key      text NOT NULL,
    phrase        text NOT NULL,
    model         text NOT NULL,
    embedding     vector NOT NULL,
    PRIMARY KEY (workspace_id, predicate_key)
);

-- Partition offsets: the last claims-stream sequence applied per partition, written in the same transaction
-- as the projection rows it produced (exactly-once effect).
CREATE TABLE partition_offsets (
    partition  int PRIMARY KEY,
    stream_seq bigint NOT NULL,
    owner      text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- Erasure records: what was erased, by whom and when; never the erased content.
CREATE TABLE erasures (
    id              uuid PRIMARY KEY,
    workspace_id    text NOT NULL,
    kind            text NOT NULL CHECK (kind IN ('subject', 'agent', 'workspace')),
    target_hash     text,
    requested_by    text NOT NULL,
    requested_at    timestamptz NOT NULL,
    completed_at    timestamptz,
    claims_erased   int NOT NULL DEFAULT 0,
    messages_purged int NOT NULL DEFAULT 0
);
