// Package natsauth is Mneme's NATS security in the decentralized JWT model NATS deployments use: one operator,
// three accounts and least-privilege users, all kept in one directory that `mneme nats init` writes.
//
//   - Account MNEME holds Mneme's streams (JetStream enabled) and one user per service (ServicePermissions),
//     plus the replay command's user. It exports one service, mneme.inbox.>, to the AGENTS account only.
//   - Account AGENTS holds one user per issued agent credential. An agent's user may publish only to
//     mneme.inbox.<ws>.<agent>.turns|claims (AgentPermissions) and subscribe only to its own reply inbox; the
//     account has no JetStream and imports nothing but the inbox, so an agent cannot reach Mneme's streams, its
//     JetStream API, its consumers' acknowledgements or the judge log even through a permission mistake.
//     Ingest takes the agent from the subject, so a message's agent is the credential's.
//   - Account SYS is the system account; its user pushes account updates (revocations) to running servers.
//
// The directory (Layout) holds secrets: the operator's and accounts' seeds sign new credentials and
// revocations, and every .creds file is a login. It is created 0700 with files 0600.
package natsauth

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nkeys"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// Names of the operator and accounts.
const (
	OperatorName  = "mneme"
	AccountMneme  = "MNEME"
	AccountAgents = "AGENTS"
	AccountSystem = "SYS"
)

// accountNames in the order they are created.
var accountNames = []string{AccountSystem, AccountMneme, AccountAgents}

// inboxExport is the one service the MNEME account exports to AGENTS: publishing into the inbox stream (the
// JetStream acknowledgement flows back as the service's response).
const inboxExport = "mneme.inbox.>"

// Sentinel errors, checked with errors.Is.
var (
	// ErrNoSetup is returned by Load for a directory without an operator (run `mneme nats init`).
	ErrNoSetup = errors.New("natsauth: no NATS credentials in this directory")
	// ErrNoAgentCredential is returned by RevokeAgent when no credential was ever issued to the agent.
	ErrNoAgentCredential = errors.New("natsauth: no NATS credential was issued to this agent")
)

// Layout names the files of a credentials directory.
//
//	operator.jwt, operator.nk           the operator (the seed signs accounts and their revocations)
//	accounts/<NAME>.jwt, <NAME>.nk      MNEME, AGENTS, SYS (the seeds sign users)
//	creds/<user>/nats.creds             ingest, extractor, embedder, reconciler, query, replay, sys
//	server/auth.conf                    what a NATS server needs: operator, system account, resolver + preload
//	agents/<ws>/<agent token>/<key>.jwt every agent credential issued (public part), for revocation
//	setup.json                          options given to init (the resolver directory)
type Layout struct{ Dir string }

// OperatorJWT is the operator's JWT file.
func (l Layout) OperatorJWT() string { return filepath.Join(l.Dir, "operator.jwt") }

// Creds is the .creds file of a service user (ServiceUsers or UserSystem): creds/<user>/nats.creds, one
// directory per user so a container can mount its own credential and nothing else.
func (l Layout) Creds(user string) string { return filepath.Join(l.Dir, "creds", user, "nats.creds") }

// ServerConfig is the include file for nats-server (auth.conf).
func (l Layout) ServerConfig() string { return filepath.Join(l.Dir, "server", "auth.conf") }

func (l Layout) operatorSeed() string        { return filepath.Join(l.Dir, "operator.nk") }
func (l Layout) accountJWT(n string) string  { return filepath.Join(l.Dir, "accounts", n+".jwt") }
func (l Layout) accountSeed(n string) string { return filepath.Join(l.Dir, "accounts", n+".nk") }
func (l Layout) agentDir(ws, agent string) string {
	return filepath.Join(l.Dir, "agents", ws, bus.AgentToken(agent))
}
func (l Layout) options() string { return filepath.Join(l.Dir, "setup.json") }

// Options are the choices `mneme nats init` records.
type Options struct {
	// ResolverDir is where a NATS server using server/auth.conf keeps account JWTs (its "full" resolver). A
	// relative path is relative to the NATS server's working directory. Default "jwt".
	ResolverDir string `json:"resolver_dir"`
}

// Setup is a loaded credentials directory. Its methods are not safe for concurrent use by several processes
// on one directory (admin commands are run one at a time).
type Setup struct {
	Layout
	opts        Options
	operator    nkeys.KeyPair
	operatorJWT string
	operatorPub string
	accounts    map[string]*account
}

type account struct {
	kp     nkeys.KeyPair
	pub    string
	claims *jwt.AccountClaims
	jwt    string
}

// Init creates the credentials directory, or completes an existing one: keys already there are kept (so
// issued credentials stay valid), missing service credentials, those issued with other permissions than this
// version's ServicePermissions (an upgrade that gives a service a new right), and the server configuration
// are (re)written.
// opts.ResolverDir, when set, replaces the recorded one.
func Init(dir string, opts Options) (*Setup, error) {
	l := Layout{Dir: dir}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("natsauth: %w", err)
	}
	s, err := Load(dir)
	switch {
	case errors.Is(err, ErrNoSetup):
		if s, err = create(l); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	if opts.ResolverDir != "" {
		s.opts.ResolverDir = opts.ResolverDir
	}
	if s.opts.ResolverDir == "" {
		s.opts.ResolverDir = "jwt"
	}
	if err := writeJSON(l.options(), s.opts); err != nil {
		return nil, err
	}
	for _, u := range append(append([]string(nil), ServiceUsers...), UserSystem) {
		if _, err := os.Stat(l.Creds(u)); err == nil && (u == UserSystem || servicePermissionsCurrent(l.Creds(u), u)) {
			continue
		}
		if err := s.writeServiceCreds(u); err != nil {
			return nil, err
		}
	}
	if err := s.WriteServerConfig(); err != nil {
		return nil, err
	}
	return s, nil
}

// create makes the operator and the accounts.
func create(l Layout) (*Setup, error) {
	op, err := nkeys.CreateOperator()
	if err != nil {
		return nil, fmt.Errorf("natsauth: operator key: %w", err)
	}
	opPub, _ := op.PublicKey()
	s := &Setup{Layout: l, operator: op, operatorPub: opPub, accounts: map[string]*account{}}
	for _, name := range accountNames {
		kp, err := nkeys.CreateAccount()
		if err != nil {
			return nil, fmt.Errorf("natsauth: account key: %w", err)
		}
		pub, _ := kp.PublicKey()
		s.accounts[name] = &account{kp: kp, pub: pub, claims: jwt.NewAccountClaims(pub)}
	}
	oc := jwt.NewOperatorClaims(opPub)
	oc.Name = OperatorName
	oc.SystemAccount = s.accounts[AccountSystem].pub
	if s.operatorJWT, err = oc.Encode(op); err != nil {
		return nil, fmt.Errorf("natsauth: operator JWT: %w", err)
	}

	mneme, agents := s.accounts[AccountMneme], s.accounts[AccountAgents]
	mneme.claims.Name = AccountMneme
	// JetStream on, without limits of its own: the streams' own limits apply.
	mneme.claims.Limits.JetStreamLimits = jwt.JetStreamLimits{MemoryStorage: jwt.NoLimit, DiskStorage: jwt.NoLimit, Streams: jwt.NoLimit, Consumer: jwt.NoLimit}
	mneme.claims.Exports.Add(&jwt.Export{Name: "mneme-inbox", Subject: inboxExport, Type: jwt.Service, TokenReq: true,
		Info: jwt.Info{Description: "publish agent batches into Mneme's inbox stream; the response is the JetStream acknowledgement"}})
	act := jwt.NewActivationClaims(agents.pub)
	act.Name = "mneme-inbox"
	act.ImportSubject = inboxExport
	act.ImportType = jwt.Service
	token, err := act.Encode(mneme.kp)
	if err != nil {
		return nil, fmt.Errorf("natsauth: inbox activation: %w", err)
	}
	agents.claims.Name = AccountAgents
	agents.claims.Imports.Add(&jwt.Import{Name: "mneme-inbox", Subject: inboxExport, Account: mneme.pub, Token: token, Type: jwt.Service})
	s.accounts[AccountSystem].claims.Name = AccountSystem

	if err := writeFile(l.operatorSeed(), seedOf(op), 0o600); err != nil {
		return nil, err
	}
	if err := writeFile(l.OperatorJWT(), []byte(s.operatorJWT), 0o644); err != nil {
		return nil, err
	}
	for _, name := range accountNames {
		a := s.accounts[name]
		if err := writeFile(l.accountSeed(name), seedOf(a.kp), 0o600); err != nil {
			return nil, err
		}
		if err := s.saveAccount(name); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Load reads a credentials directory written by Init.
func Load(dir string) (*Setup, error) {
	l := Layout{Dir: dir}
	opSeed, err := os.ReadFile(l.operatorSeed())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (run `mneme nats init -dir %s`)", ErrNoSetup, dir, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("natsauth: %w", err)
	}
	op, err := nkeys.FromSeed(bytes.TrimSpace(opSeed))
	if err != nil {
		return nil, fmt.Errorf("natsauth: %s: %w", l.operatorSeed(), err)
	}
	opJWT, err := os.ReadFile(l.OperatorJWT())
	if err != nil {
		return nil, fmt.Errorf("natsauth: %w", err)
	}
	opPub, _ := op.PublicKey()
	s := &Setup{Layout: l, operator: op, operatorPub: opPub, operatorJWT: string(bytes.TrimSpace(opJWT)), accounts: map[string]*account{}}
	for _, name := range accountNames {
		seed, err := os.ReadFile(l.accountSeed(name))
		if err != nil {
			return nil, fmt.Errorf("natsauth: account %s: %w", name, err)
		}
		kp, err := nkeys.FromSeed(bytes.TrimSpace(seed))
		if err != nil {
			return nil, fmt.Errorf("natsauth: %s: %w", l.accountSeed(name), err)
		}
		token, err := os.ReadFile(l.accountJWT(name))
		if err != nil {
			return nil, fmt.Errorf("natsauth: account %s: %w", name, err)
		}
		claims, err := jwt.DecodeAccountClaims(string(bytes.TrimSpace(token)))
		if err != nil {
			return nil, fmt.Errorf("natsauth: %s: %w", l.accountJWT(name), err)
		}
		pub, _ := kp.PublicKey()
		if claims.Subject != pub || claims.Issuer != opPub {
			return nil, fmt.Errorf("natsauth: %s does not belong to this operator and key", l.accountJWT(name))
		}
		s.accounts[name] = &account{kp: kp, pub: pub, claims: claims, jwt: string(bytes.TrimSpace(token))}
	}
	if b, err := os.ReadFile(l.options()); err == nil {
		if err := json.Unmarshal(b, &s.opts); err != nil {
			return nil, fmt.Errorf("natsauth: %s: %w", l.options(), err)
		}
	}
	return s, nil
}

// OperatorJWT returns the operator's JWT (servers trust it).
func (s *Setup) OperatorJWT() string { return s.operatorJWT }

// OperatorKey returns the operator's public key.
func (s *Setup) OperatorKey() string { return s.operatorPub }

// SystemAccount returns the system account's public key.
func (s *Setup) SystemAccount() string { return s.accounts[AccountSystem].pub }

// AccountKey returns the public key of account name (AccountMneme, AccountAgents, AccountSystem).
func (s *Setup) AccountKey(name string) string { return s.accounts[name].pub }

// AccountJWTs returns every account's current JWT by public key: what a server's resolver is preloaded with.
func (s *Setup) AccountJWTs() map[string]string {
	out := make(map[string]string, len(s.accounts))
	for _, a := range s.accounts {
		out[a.pub] = a.jwt
	}
	return out
}

// AccountJWT returns the current JWT of account name.
func (s *Setup) AccountJWT(name string) string { return s.accounts[name].jwt }

// saveAccount signs account name's claims with the operator and writes them.
func (s *Setup) saveAccount(name string) error {
	a := s.accounts[name]
	token, err := a.claims.Encode(s.operator)
	if err != nil {
		return fmt.Errorf("natsauth: sign account %s: %w", name, err)
	}
	a.jwt = token
	return writeFile(s.accountJWT(name), []byte(token), 0o644)
}

// writeServiceCreds issues the user of a service (or the system user) and writes its .creds file.
func (s *Setup) writeServiceCreds(user string) error {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return fmt.Errorf("natsauth: user key: %w", err)
	}
	pub, _ := kp.PublicKey()
	uc := jwt.NewUserClaims(pub)
	uc.Name = user
	acc := s.accounts[AccountMneme]
	if user == UserSystem {
		acc = s.accounts[AccountSystem]
		uc.Pub.Allow.Add("$SYS.REQ.>")
		uc.Sub.Allow.Add(InboxPrefix(pub) + ".>")
	} else {
		perms, err := ServicePermissions(user, pub)
		if err != nil {
			return err
		}
		uc.Permissions = perms
	}
	token, err := uc.Encode(acc.kp)
	if err != nil {
		return fmt.Errorf("natsauth: sign user %s: %w", user, err)
	}
	creds, err := jwt.FormatUserConfig(token, seedOf(kp))
	if err != nil {
		return fmt.Errorf("natsauth: creds of %s: %w", user, err)
	}
	return writeFile(s.Creds(user), creds, 0o600)
}

func seedOf(kp nkeys.KeyPair) []byte {
	seed, _ := kp.Seed()
	return seed
}

// writeFile writes data atomically (temporary file and rename) with mode perm, creating parent directories
// 0700.
func writeFile(path string, data []byte, perm os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("natsauth: write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("natsauth: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("natsauth: write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	return nil
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(b, '\n'), 0o600)
}

// sortedKeys returns m's keys in order (stable output of generated files).
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// servicePermissionsCurrent reports whether the service credential at path grants exactly what
// ServicePermissions gives user now. A credential that cannot be read counts as not current.
func servicePermissionsCurrent(path, user string) bool {
	c, err := ReadCreds(path)
	if err != nil || c.Claims.Name != user {
		return false
	}
	want, err := ServicePermissions(user, c.UserKey)
	if err != nil {
		return false
	}
	got := c.Claims.Permissions
	return slices.Equal(got.Pub.Allow, want.Pub.Allow) && slices.Equal(got.Pub.Deny, want.Pub.Deny) &&
		slices.Equal(got.Sub.Allow, want.Sub.Allow) && slices.Equal(got.Sub.Deny, want.Sub.Deny) &&
		reflect.DeepEqual(got.Resp, want.Resp)
}
