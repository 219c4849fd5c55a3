-- Reconciler: what an erasure needs to find every message and row of what it erases.

-- Claims-stream messages that repeated a claim id already applied (no effect on the projection, but the message
-- still holds the claim's content, so an erasure must delete it too).
CREATE TABLE duplicate_messages (
    partition  int NOT NULL,
    stream_seq bigint NOT NULL,
    claim_id   uuid NOT NULL,
    PRIMARY KEY (partition, stream_seq)
);
CREATE INDEX duplicate_messages_claim_idx ON duplicate_messages (claim_id);

-- Per partition part of an erasure: the erased claim ids and source turn ids, kept only until the whole erasure
-- completes (the last part purges the non-partitioned streams with them, then clears them). Ids, never content.
ALTER TABLE erasure_parts ADD COLUMN erased_claims uuid[];
ALTER TABLE erasure_parts ADD COLUMN turn_ids text[];
