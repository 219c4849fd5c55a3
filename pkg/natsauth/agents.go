package natsauth

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
