package natsauth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
)

// AgentCredential is a NATS credential issued to one agent of one workspace.
type AgentCredential struct {
	Workspace, Agent string
	// Creds is the .creds file's content (user JWT and nkey seed): a secret.
	Creds []byte
	// UserKey is the user's public key; InboxPrefix the reply prefix the client must use.
	UserKey, InboxPrefix string
	// Subjects are the only subjects the credential may publish to.
	Subjects []string
	// Expires is when the credential stops working; zero for never.
	Expires time.Time
}

// AgentMaxSubscriptions is how many subscriptions an agent's connection may hold at once.
const AgentMaxSubscriptions = 4

// IssueAgent issues a credential for agent of workspace ws in the AGENTS account, valid for ttl (0: until
// revoked). The public part is recorded under agents/ so RevokeAgent can find every credential of the agent.
// Issuing needs no running server: servers accept any user the account signs.
func (s *Setup) IssueAgent(ws, agent string, ttl time.Duration) (AgentCredential, error) {
	if err := auth.ValidWorkspaceID(ws); err != nil {
		return AgentCredential{}, fmt.Errorf("natsauth: %w", err)
	}
	if err := auth.ValidAgentID(agent); err != nil {
		return AgentCredential{}, fmt.Errorf("natsauth: %w", err)
	}
	if ttl < 0 {
		return AgentCredential{}, fmt.Errorf("natsauth: negative lifetime %s", ttl)
	}
	kp, err := nkeys.CreateUser()
	if err != nil {
		return AgentCredential{}, fmt.Errorf("natsauth: user key: %w", err)
	}
	pub, _ := kp.PublicKey()
	uc := jwt.NewUserClaims(pub)
	uc.Name = "agent " + agent + " of " + ws
	uc.Permissions = AgentPermissions(ws, agent, pub)
	// An agent connects as a client; never as a leaf node or over MQTT, which would bypass nothing but are
	// surfaces it does not need.
	uc.AllowedConnectionTypes.Add(jwt.ConnectionTypeStandard, jwt.ConnectionTypeWebsocket)
	// Limits the server enforces on the connection: no message larger than an inbox batch may be, and a few
	// subscriptions (a client needs one, for its reply inbox; a handful leaves room for client libraries
	// that subscribe per request). How much an agent may queue is bounded per subject by the inbox stream
	// (bus.Topology.InboxMaxPerSubject); the user JWT's data limit is not enforced for users by the server, so
	// it is left unset rather than suggest a bound that does not hold.
	uc.Limits.Payload = int64(bus.DefaultTopology().MaxMsgSize)
	uc.Limits.Subs = AgentMaxSubscriptions
	var expires time.Time
	if ttl > 0 {
		expires = time.Now().Add(ttl).Truncate(time.Second)
		uc.Expires = expires.Unix()
	}
	token, err := uc.Encode(s.accounts[AccountAgents].kp)
	if err != nil {
		return AgentCredential{}, fmt.Errorf("natsauth: sign agent user: %w", err)
	}
	creds, err := jwt.FormatUserConfig(token, seedOf(kp))
	if err != nil {
		return AgentCredential{}, fmt.Errorf("natsauth: %w", err)
	}
	if err := writeFile(filepath.Join(s.agentDir(ws, agent), pub+".jwt"), []byte(token), 0o600); err != nil {
		return AgentCredential{}, err
	}
	return AgentCredential{
		Workspace: ws, Agent: agent, Creds: creds, UserKey: pub, InboxPrefix: InboxPrefix(pub),
		Subjects: []string(uc.Pub.Allow), Expires: expires,
	}, nil
}

// RevokeAgent revokes every credential issued to agent of ws up to now, in the AGENTS account's JWT, and
// rewrites the server configuration. It returns the revoked user keys and the new account JWT, which must
// reach running servers (Push) for connected agents to be disconnected; a server started later reads it from
// server/auth.conf. Credentials issued afterwards are not affected.
func (s *Setup) RevokeAgent(ws, agent string) (revoked []string, accountJWT string, err error) {
	entries, err := os.ReadDir(s.agentDir(ws, agent))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("%w: %s of workspace %s", ErrNoAgentCredential, agent, ws)
	}
	if err != nil {
		return nil, "", fmt.Errorf("natsauth: %w", err)
	}
	// A user JWT is revoked when it was issued at or before this time (seconds); every key listed was.
	at := time.Now()
	acc := s.accounts[AccountAgents]
	for _, e := range entries {
		key, ok := strings.CutSuffix(e.Name(), ".jwt")
		if !ok || !nkeys.IsValidPublicUserKey(key) {
			continue
		}
		acc.claims.RevokeAt(key, at)
		revoked = append(revoked, key)
	}
	if len(revoked) == 0 {
		return nil, "", fmt.Errorf("%w: %s of workspace %s", ErrNoAgentCredential, agent, ws)
	}
	if err := s.saveAccount(AccountAgents); err != nil {
		return nil, "", err
	}
	if err := s.WriteServerConfig(); err != nil {
		return nil, "", err
	}
	return revoked, acc.jwt, nil
}

// IssuedAgent is one agent credential the directory has issued, as ListAgents reports it: never the
// credential itself (its seed was only ever printed), only its public part.
type IssuedAgent struct {
	Workspace, Agent string
	// UserKey is the credential's user public key.
	UserKey string
	// Issued is when it was issued; Expires when it stops working (zero: never).
	Issued, Expires time.Time
	// Revoked is true when the AGENTS account revokes it (`mneme nats revoke-agent`).
	Revoked bool
}

// ListAgents returns the agent credentials issued from this directory — of workspace ws, or of every
// workspace when ws is empty — ordered by workspace, agent and issue time. It reads the public parts recorded
// at issue (agents/) and the AGENTS account's revocations.
func (s *Setup) ListAgents(ws string) ([]IssuedAgent, error) {
	root := filepath.Join(s.Dir, "agents")
	if ws != "" {
		if err := auth.ValidWorkspaceID(ws); err != nil {
			return nil, fmt.Errorf("natsauth: %w", err)
		}
		root = filepath.Join(root, ws)
	}
	acc := s.accounts[AccountAgents]
	var out []IssuedAgent
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && path == root {
			return fs.SkipDir // nothing issued yet
		}
		if err != nil || d.IsDir() {
			return err
		}
		key, ok := strings.CutSuffix(d.Name(), ".jwt")
		if !ok || !nkeys.IsValidPublicUserKey(key) {
			return nil
		}
		// agents/<ws>/<agent token>/<key>.jwt
		rel, err := filepath.Rel(filepath.Join(s.Dir, "agents"), path)
		if err != nil {
			return err
		}
		parts := strings.Split(filepath.ToSlash(rel), "/")
		if len(parts) != 3 {
			return nil
		}
		agent, err := bus.ParseAgentToken(parts[1])
		if err != nil {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		uc, err := jwt.DecodeUserClaims(strings.TrimSpace(string(b)))
		if err != nil {
			return fmt.Errorf("natsauth: %s: %w", path, err)
		}
		ia := IssuedAgent{Workspace: parts[0], Agent: agent, UserKey: key, Issued: time.Unix(uc.IssuedAt, 0).UTC(),
			Revoked: acc.claims.IsClaimRevoked(uc)}
		if uc.Expires > 0 {
			ia.Expires = time.Unix(uc.Expires, 0).UTC()
		}
		out = append(out, ia)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("natsauth: list agents: %w", err)
	}
	slices.SortFunc(out, func(a, b IssuedAgent) int {
		if c := strings.Compare(a.Workspace, b.Workspace); c != 0 {
			return c
		}
		if c := strings.Compare(a.Agent, b.Agent); c != 0 {
			return c
		}
		if c := a.Issued.Compare(b.Issued); c != 0 {
			return c
		}
		return strings.Compare(a.UserKey, b.UserKey)
	})
	return out, nil
}

// Creds is a parsed .creds file.
type Creds struct {
	// JWT is the user JWT; Claims its decoded (unverified) claims.
	JWT    string
	Claims *jwt.UserClaims
	// UserKey is the user's public key.
	UserKey string
}

// ReadCreds parses a .creds file and checks that its seed belongs to its JWT.
func ReadCreds(path string) (Creds, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Creds{}, fmt.Errorf("natsauth: %w", err)
	}
	token, err := jwt.ParseDecoratedJWT(b)
	if err != nil {
		return Creds{}, fmt.Errorf("natsauth: %s: %w", path, err)
	}
	uc, err := jwt.DecodeUserClaims(token)
	if err != nil {
		return Creds{}, fmt.Errorf("natsauth: %s: %w", path, err)
	}
	kp, err := jwt.ParseDecoratedNKey(b)
	if err != nil {
		return Creds{}, fmt.Errorf("natsauth: %s: %w", path, err)
	}
	pub, _ := kp.PublicKey()
	if pub != uc.Subject {
		return Creds{}, fmt.Errorf("natsauth: %s: the seed does not belong to the JWT", path)
	}
	return Creds{JWT: token, Claims: uc, UserKey: pub}, nil
}

// AgentSubjectsHelp describes, for a person, how an agent uses cred.
func AgentSubjectsHelp(cred AgentCredential) string {
	var b strings.Builder
	fmt.Fprintf(&b, "NATS credential for agent %q of workspace %q (user %s)\n", cred.Agent, cred.Workspace, cred.UserKey)
	fmt.Fprintf(&b, "  publish turns to   %s\n", bus.InboxAgentSubject(cred.Workspace, cred.Agent, bus.InboxKindTurns))
	fmt.Fprintf(&b, "  publish claims to  %s\n", bus.InboxAgentSubject(cred.Workspace, cred.Agent, bus.InboxKindClaims))
	fmt.Fprintf(&b, "  inbox prefix       %s  (set it in your client: it may subscribe nowhere else)\n", cred.InboxPrefix)
	if cred.Expires.IsZero() {
		b.WriteString("  expires            never (revoke with `mneme nats revoke-agent`)\n")
	} else {
		fmt.Fprintf(&b, "  expires            %s\n", cred.Expires.UTC().Format(time.RFC3339))
	}
	return b.String()
}
