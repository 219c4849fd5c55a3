-- HTTP keys with roles, public ids and expiry, and the audit log of administrative actions (pkg/auth,
-- pkg/audit; see README "HTTP keys and roles").

-- key_id is a key's public name (listing, revocation, audit): "mk_" and the first 16 hex digits of its SHA-256.
-- It identifies a key without being one.
ALTER TABLE api_keys ADD COLUMN key_id text;
UPDATE api_keys SET key_id = 'mk_' || substr(encode(key_hash, 'hex'), 1, 16);
ALTER TABLE api_keys ALTER COLUMN key_id SET NOT NULL;
CREATE UNIQUE INDEX api_keys_key_id_idx ON api_keys (key_id);

-- role says what a key may do beyond reading and writing as its agent: agent (erase within its own private
-- tier), curator (also the shared tier), admin (anything in its workspace: other agents' private tiers, the
-- whole workspace, quarantine release). Keys issued before roles existed keep what they could do: a key valid
-- for any agent was the workspace's administrative key, a key bound to one agent is an agent key.
ALTER TABLE api_keys ADD COLUMN role text;
UPDATE api_keys SET role = CASE WHEN agent_id IS NULL THEN 'admin' ELSE 'agent' END;
ALTER TABLE api_keys ALTER COLUMN role SET NOT NULL;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('agent', 'curator', 'admin'));
ALTER TABLE api_keys ADD CONSTRAINT api_keys_agent_key_bound CHECK (role <> 'agent' OR agent_id IS NOT NULL);
-- expires_at NULL: the key does not expire (it can still be revoked).
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;
ALTER TABLE api_keys ADD COLUMN created_by text NOT NULL DEFAULT 'admin';
CREATE INDEX api_keys_workspace_idx ON api_keys (workspace_id, created_at);

-- Administrative actions: who (actor: the agent a key acted as, or "cli" for admin commands; key_id when a key
-- acted), what (action, details: ids, roles, scopes, hashes — never erased content, never a secret), when
-- (wall clock: this is not projection state). published_at is set once the row is on the ledger stream as an
-- io.mneme.audit.v1.recorded event (the reconciler relays unpublished rows, so writers need no broker).
CREATE TABLE audit_log (
    id           uuid PRIMARY KEY,
    -- seq orders entries as they were recorded (several can share a transaction's time stamp).
    seq          bigserial NOT NULL,
    workspace_id text,
    action       text NOT NULL,
    actor        text NOT NULL,
    key_id       text,
    details      jsonb NOT NULL DEFAULT '{}',
    recorded_at  timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz
);
CREATE INDEX audit_log_workspace_idx ON audit_log (workspace_id, seq);
CREATE INDEX audit_log_unpublished_idx ON audit_log (seq) WHERE published_at IS NULL;

-- Erasures are scoped to what the caller may write: scope all (every tier: an admin key or development mode),
-- private (the private tier of scope_agent), shared (the shared tier), shared_private (both). Earlier records
-- were unscoped, which is what all means.
ALTER TABLE erasures ADD COLUMN scope text NOT NULL DEFAULT 'all'
    CHECK (scope IN ('all', 'private', 'shared', 'shared_private'));
ALTER TABLE erasures ADD COLUMN scope_agent text;
ALTER TABLE erasures ADD COLUMN requested_key text;
