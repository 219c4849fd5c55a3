// Package client is a typed Go client for Mneme's HTTP API (/v1): writes (turns, structured claims), reads
// (search, answer, subject timelines, claim provenance), confirmations and erasures, and the health probes.
//
//	c, err := client.New("http://127.0.0.1:8080", "planner-agent")
//	_, err = c.Claims(ctx, "team", api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Alice", Predicate: "lives in", Object: "Berlin"}}})
//	res, err := c.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?"})
//
// Every non-2xx response is returned as an *Error carrying the status and the server's api.ErrorBody, so
// callers can branch on the code and name the offending field:
//
//	var e *client.Error
//	if errors.As(err, &e) && e.Status == http.StatusNotFound { ... }
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// DefaultTimeout bounds one request when no other timeout is configured.
const DefaultTimeout = 30 * time.Second

// maxResponseBytes bounds a response body the client reads (a subject timeline is the largest).
const maxResponseBytes = 64 << 20

// Error is a non-2xx response: the HTTP status and the server's error body.
type Error struct {
	Status int
	Body   api.ErrorBody
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "mneme: %d %s", e.Status, e.Body.Code)
	if e.Body.Field != "" {
		fmt.Fprintf(&b, " (field %s)", e.Body.Field)
	}
	if e.Body.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Body.Message)
	}
	if e.Body.Limit != "" {
		fmt.Fprintf(&b, " [limit %s]", e.Body.Limit)
	}
	return b.String()
}

// Sentinel errors matched by errors.Is against an *Error's status.
var (
	ErrBadRequest   = errors.New("mneme: bad request")
	ErrUnauthorized = errors.New("mneme: unauthenticated")
	ErrForbidden    = errors.New("mneme: permission denied")
	ErrNotFound     = errors.New("mneme: not found")
	ErrUnavailable  = errors.New("mneme: unavailable")
)

// Is lets errors.Is(err, client.ErrNotFound) and friends match by status.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrBadRequest:
		return e.Status == http.StatusBadRequest || e.Status == http.StatusRequestEntityTooLarge
	case ErrUnauthorized:
		return e.Status == http.StatusUnauthorized
	case ErrForbidden:
		return e.Status == http.StatusForbidden
	case ErrNotFound:
		return e.Status == http.StatusNotFound
	case ErrUnavailable:
		return e.Status == http.StatusServiceUnavailable || e.Status == http.StatusGatewayTimeout
	}
	return false
}

// MaxIdleConnsPerHost is how many idle connections to a deployment the default HTTP client keeps for reuse.
// Go's default transport keeps two, so a client making more requests at once than that — an agent platform's
// workers sharing one Client — closed the others after each request and dialled again for the next, paying a
// TCP handshake and a new server connection per call on both sides.
const MaxIdleConnsPerHost = 64

// defaultHTTP is the HTTP client of a Client without WithHTTPClient: Go's default transport (proxy from the
// environment, dial and TLS timeouts, HTTP/2) keeping MaxIdleConnsPerHost idle connections per host.
var defaultHTTP = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = MaxIdleConnsPerHost
	return &http.Client{Transport: t}
}()

// Client calls one Mneme deployment as one agent. It is safe for concurrent use.
type Client struct {
	base    *url.URL
	agent   string
	key     string
	http    *http.Client
	timeout time.Duration
}

// Option configures a Client.
type Option func(*Client)

// WithKey sends "Authorization: Bearer <key>" (a workspace key; required outside development mode).
func WithKey(key string) Option { return func(c *Client) { c.key = key } }

// WithHTTPClient sets the underlying HTTP client (transport, proxies, TLS); the default keeps
// MaxIdleConnsPerHost idle connections per host.
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// WithTimeout bounds each request (default DefaultTimeout); 0 leaves requests bounded only by their context.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// New returns a client for the deployment at baseURL (e.g. http://127.0.0.1:8080) acting as agent.
func New(baseURL, agent string, opts ...Option) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("mneme: base URL %q is not an http(s) URL", baseURL)
	}
	if agent == "" {
		return nil, errors.New("mneme: agent is required (it is sent as " + api.HeaderAgent + ")")
	}
	c := &Client{base: u, agent: agent, http: defaultHTTP, timeout: DefaultTimeout}
	for _, o := range opts {
		o(c)
	}
	return c, nil
}

// Agent returns the agent the client acts as.
func (c *Client) Agent() string { return c.agent }

// WithAgent returns a copy of c acting as another agent (same deployment, key and transport).
func (c *Client) WithAgent(agent string) *Client {
	cp := *c
	cp.agent = agent
	return &cp
}

// Turns sends turns (POST /v1/workspaces/{ws}/turns); 202 means they are durably accepted.
func (c *Client) Turns(ctx context.Context, ws string, req api.TurnsRequest) (*api.AcceptedResponse, error) {
	var out api.AcceptedResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "turns"), nil, req, &out)
}

// Claims sends structured claims (POST /v1/workspaces/{ws}/claims).
func (c *Client) Claims(ctx context.Context, ws string, req api.ClaimsRequest) (*api.AcceptedResponse, error) {
	var out api.AcceptedResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "claims"), nil, req, &out)
}

// Search retrieves claims and a token-budgeted context (POST /v1/workspaces/{ws}/search).
func (c *Client) Search(ctx context.Context, ws string, req api.SearchRequest) (*api.SearchResponse, error) {
	var out api.SearchResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "search"), nil, req, &out)
}

// Answer answers a question (POST /v1/workspaces/{ws}/answer).
func (c *Client) Answer(ctx context.Context, ws string, req api.AnswerRequest) (*api.AnswerResponse, error) {
	var out api.AnswerResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "answer"), nil, req, &out)
}

// ReadOptions selects a bitemporal read — AsOf (valid time) and KnownAt (transaction time); zero means now —
// and, for Subject and Claim, which page of the decision chains comes back. A chain continues with the
// DecisionsNext of the previous page as DecisionsCursor (for a subject, with Slot set to that slot):
//
//	o := client.ReadOptions{DecisionsLimit: 200}
//	for {
//		cr, err := c.Claim(ctx, ws, id, o)
//		if err != nil { ... }
//		use(cr.Decisions)
//		if cr.DecisionsNext == "" { break }
//		o.DecisionsCursor = cr.DecisionsNext
//	}
type ReadOptions struct {
	AsOf    time.Time
	KnownAt time.Time
	// Slot restricts a subject to one slot (its slot_key); Subject only.
	Slot string
	// DecisionsLimit is the decisions per page of a chain (a claim's, or each slot's): 0 means the server's
	// default (api.DefaultDecisionsLimit), a negative value none (only the totals), at most
	// api.MaxDecisionsLimit.
	DecisionsLimit int
	// DecisionsCursor continues a chain: the DecisionsNext of the previous page.
	DecisionsCursor string
	// InputsLimit is the input ids, and loser ids, per decision: 0 means the server's default
	// (api.DefaultInputsLimit), a negative value none (only the counts), at most api.MaxInputsLimit.
	InputsLimit int
}

func (o ReadOptions) query() url.Values {
	q := url.Values{}
	if !o.AsOf.IsZero() {
		q.Set("as_of", o.AsOf.UTC().Format(time.RFC3339Nano))
	}
	if !o.KnownAt.IsZero() {
		q.Set("known_at", o.KnownAt.UTC().Format(time.RFC3339Nano))
	}
	if o.Slot != "" {
		q.Set(api.ParamSlot, o.Slot)
	}
	if o.DecisionsLimit != 0 {
		q.Set(api.ParamDecisionsLimit, strconv.Itoa(max(o.DecisionsLimit, 0)))
	}
	if o.DecisionsCursor != "" {
		q.Set(api.ParamDecisionsCursor, o.DecisionsCursor)
	}
	if o.InputsLimit != 0 {
		q.Set(api.ParamInputsLimit, strconv.Itoa(max(o.InputsLimit, 0)))
	}
	return q
}

// Subject returns the current beliefs and timeline of a subject, with a page of each slot's decisions
// (GET /v1/workspaces/{ws}/subjects/{key}).
func (c *Client) Subject(ctx context.Context, ws, subjectKey string, o ReadOptions) (*api.SubjectResponse, error) {
	var out api.SubjectResponse
	return &out, c.do(ctx, http.MethodGet, wsPath(ws, "subjects", subjectKey), o.query(), nil, &out)
}

// Claim returns a claim's provenance and a page of its decision chain (GET /v1/workspaces/{ws}/claims/{id}).
func (c *Client) Claim(ctx context.Context, ws, id string, o ReadOptions) (*api.ClaimResponse, error) {
	var out api.ClaimResponse
	return &out, c.do(ctx, http.MethodGet, wsPath(ws, "claims", id), o.query(), nil, &out)
}

// Confirm explicitly confirms a pending claim (POST /v1/workspaces/{ws}/claims/{id}/confirm).
func (c *Client) Confirm(ctx context.Context, ws, claimID string) (*api.ConfirmResponse, error) {
	var out api.ConfirmResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "claims", claimID, "confirm"), nil, nil, &out)
}

// Release releases a quarantined claim after review (POST /v1/workspaces/{ws}/claims/{id}/release); it needs
// an admin key.
func (c *Client) Release(ctx context.Context, ws, claimID string) (*api.ConfirmResponse, error) {
	var out api.ConfirmResponse
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "claims", claimID, "release"), nil, nil, &out)
}

// RequestErasure asks to forget a subject, an agent's claims or the workspace (POST /v1/workspaces/{ws}/erasures).
// The server waits a while for completion: the returned Erasure has Status "completed", or "requested" when it
// is still running (poll with Erasure).
func (c *Client) RequestErasure(ctx context.Context, ws string, req api.ErasureRequest) (*api.Erasure, error) {
	var out api.Erasure
	return &out, c.do(ctx, http.MethodPost, wsPath(ws, "erasures"), nil, req, &out)
}

// Erasure returns the record of an erasure (GET /v1/workspaces/{ws}/erasures/{id}).
func (c *Client) Erasure(ctx context.Context, ws, id string) (*api.Erasure, error) {
	var out api.Erasure
	return &out, c.do(ctx, http.MethodGet, wsPath(ws, "erasures", id), nil, nil, &out)
}

// Healthz reports whether the process is alive (GET /healthz).
func (c *Client) Healthz(ctx context.Context) error {
	return c.do(ctx, http.MethodGet, []string{"healthz"}, nil, nil, nil)
}

// Readyz reports whether every service of the deployment can do its work (GET /readyz).
func (c *Client) Readyz(ctx context.Context) error {
	return c.do(ctx, http.MethodGet, []string{"readyz"}, nil, nil, nil)
}

// wsPath joins path segments under /v1/workspaces/{ws}; do escapes each segment.
func wsPath(ws string, parts ...string) []string {
	return append([]string{"v1", "workspaces", ws}, parts...)
}

// do sends one request and decodes a 2xx JSON body into out (nil: discard); other statuses become *Error.
func (c *Client) do(ctx context.Context, method string, segments []string, q url.Values, body, out any) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	// Path holds the segments as they are and RawPath their escaped form, so a subject key with "'", "/" or
	// non-ASCII letters reaches the server as one intact path segment.
	u := *c.base
	path, raw := strings.TrimRight(c.base.Path, "/"), strings.TrimRight(c.base.EscapedPath(), "/")
	for _, s := range segments {
		path += "/" + s
		raw += "/" + url.PathEscape(s)
	}
	u.Path, u.RawPath = path, raw
	if len(q) > 0 {
		u.RawQuery = q.Encode()
	}
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return fmt.Errorf("mneme: encode request: %w", err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return fmt.Errorf("mneme: %w", err)
	}
	req.Header.Set(api.HeaderAgent, c.agent)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("mneme: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return fmt.Errorf("mneme: %s %s: read response: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		e := &Error{Status: resp.StatusCode}
		var eb api.Error
		if json.Unmarshal(data, &eb) == nil && eb.Error.Code != "" {
			e.Body = eb.Error
		} else {
			e.Body = api.ErrorBody{Code: http.StatusText(resp.StatusCode), Message: strings.TrimSpace(string(data[:min(len(data), 512)]))}
		}
		return e
	}
	if out == nil || len(bytes.TrimSpace(data)) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("mneme: %s %s: decode response: %w", method, path, err)
	}
	return nil
}
