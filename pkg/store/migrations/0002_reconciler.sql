-- Reconciler schema additions (owned by services/reconciler; see its doc.go for the semantics of every table).
-- Every projection time stamp is log time (the claims-stream message time), never now(); only the columns named
-- *_wall_* or updated_at/started_at/seen_at are wall clock, and digests exclude them.

-- The independent-source key of a claim ("agent:<id>/turn:<first turn id>", "agent:<id>/ref:<source ref>" or
-- "agent:<id>"): corroboration counts distinct source keys among claims with the same object in a slot tier.
ALTER TABLE claims ADD COLUMN source_key text NOT NULL DEFAULT '';
-- The extractor named in the provenance ("structured", "rules", "llm:<model>"), for policy rules by source.
ALTER TABLE claims ADD COLUMN extractor text NOT NULL DEFAULT '';
CREATE INDEX claims_subject_idx ON claims (workspace_id, subject_key, stream_seq);
CREATE INDEX claims_partition_seq_idx ON claims (partition, stream_seq);

-- The claim that made this version superseded or rejected (NULL otherwise): "what replaced it" without a join.
ALTER TABLE claim_versions ADD COLUMN superseded_by uuid;
CREATE INDEX claim_versions_decision_idx ON claim_versions (decision_id);

-- Predicates seen per subject and the slot each was merged into. Slot identity is decided per subject (so it is
-- a function of that subject's partition log alone): a new predicate joins the slot of the most similar
-- existing predicate of the same subject when the cosine similarity of their phrase embeddings reaches the
-- configured threshold, else it opens its own slot (slot_key = predicate_key). Append-only.
CREATE TABLE subject_predicates (
    workspace_id  text NOT NULL,
    subject_key   text NOT NULL,
    predicate_key text NOT NULL,
    slot_key      text NOT NULL,
    phrase        text NOT NULL,
    model         text NOT NULL DEFAULT '',
    embedding     vector,
    similarity    double precision,
    first_claim   uuid NOT NULL,
    stream_seq    bigint NOT NULL,
    PRIMARY KEY (workspace_id, subject_key, predicate_key)
);

-- Await-confirmation gates: one row per claim the policy held (or holds) back. state: pending (not admitted to
-- resolution), admitted (confirmed by a second independent source, an explicit confirmation or an accepting
-- timeout) or timed_out (the timeout policy rejected it). deadline is log time.
CREATE TABLE claim_gates (
    claim_id     uuid PRIMARY KEY REFERENCES claims(id) ON DELETE CASCADE,
    workspace_id text NOT NULL,
    partition    int NOT NULL,
    state        text NOT NULL CHECK (state IN ('pending', 'admitted', 'timed_out')),
    deadline     timestamptz,
    on_timeout   text NOT NULL CHECK (on_timeout IN ('accept', 'reject', 'never')),
    resolved_by  text
);
CREATE INDEX claim_gates_deadline_idx ON claim_gates (partition, deadline) WHERE state = 'pending';

-- Explicit confirmations (ClaimConfirmedV1), kept even when they arrive before their claim.
CREATE TABLE confirmations (
    claim_id     uuid NOT NULL,
    agent_id     text NOT NULL,
    workspace_id text NOT NULL,
    subject_key  text NOT NULL,
    partition    int NOT NULL,
    stream_seq   bigint NOT NULL,
    confirmed_at timestamptz NOT NULL,
    PRIMARY KEY (claim_id, agent_id)
);
CREATE INDEX confirmations_subject_idx ON confirmations (workspace_id, subject_key);

-- LLM judge verdicts applied to the projection (a copy of the keyed judge log entries this projection used):
-- contradicts says whether claim_a and claim_b (claim_a < claim_b) contradict each other.
CREATE TABLE judgements (
    claim_a        uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    claim_b        uuid NOT NULL REFERENCES claims(id) ON DELETE CASCADE,
    workspace_id   text NOT NULL,
    judge_key      text NOT NULL,
    contradicts    boolean NOT NULL,
    model          text NOT NULL,
    prompt_version text NOT NULL,
    PRIMARY KEY (claim_a, claim_b)
);

-- Claims-stream messages the reconciler dead-lettered, by position; workspace/subject/agent when decodable so an
-- erasure can find them. reason never contains claim content.
CREATE TABLE dead_letters (
    partition    int NOT NULL,
    stream_seq   bigint NOT NULL,
    workspace_id text,
    subject_key  text,
    agent_id     text,
    reason       text NOT NULL,
    PRIMARY KEY (partition, stream_seq)
);

-- Last applied log time per partition (await-confirmation timeouts are evaluated against log time).
ALTER TABLE partition_offsets ADD COLUMN log_time timestamptz;

-- Reconciler replicas. A replica is live while it holds its member advisory lock (released by Postgres when the
-- process or its connection dies, even on kill -9); rows of dead members are removed by the survivors.
CREATE TABLE reconciler_members (
    member_no  bigserial PRIMARY KEY,
    instance   text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT now(),
    seen_at    timestamptz NOT NULL DEFAULT now()
);

-- Erasures are carried out through the claims partitions (one command per affected partition) so that they are
-- serialized with the claims they erase; this tracks each partition's part.
ALTER TABLE erasures ADD COLUMN status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'completed', 'failed'));
ALTER TABLE erasures ADD COLUMN partitions int NOT NULL DEFAULT 0;
CREATE TABLE erasure_parts (
    erasure_id      uuid NOT NULL REFERENCES erasures(id) ON DELETE CASCADE,
    partition       int NOT NULL,
    stream_seq      bigint NOT NULL,
    claims_erased   int NOT NULL DEFAULT 0,
    messages_purged int NOT NULL DEFAULT 0,
    command_purged  boolean NOT NULL DEFAULT false,
    completed_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (erasure_id, partition)
);
