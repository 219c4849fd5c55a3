// Package openaitest runs a local, scriptable server speaking the OpenAI-compatible HTTP API
// (POST /v1/chat/completions, POST /v1/embeddings, GET /v1/models) for tests.
//
// A request is answered, in order of precedence, by: the rejection options (RejectJSONSchema,
// RejectResponseFormat, RequireAPIKey), the next scripted Response queued for its endpoint
// (EnqueueChat, EnqueueEmbeddings), then the endpoint's Handler. The default chat handler replies
// "ok" (or "{}" when a response_format was requested); the default embeddings handler replies with
// FakeEmbedding vectors. Every request is recorded and can be inspected with Requests.
//
//	srv := openaitest.NewServer(t)
//	srv.EnqueueChat(openaitest.RateLimited(time.Second), openaitest.ChatReply(`{"claims":[]}`))
//	client, _ := llm.New(llm.Config{BaseURL: srv.URL(), Model: "m"})
package openaitest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"
)

// Endpoint paths served.
const (
	PathChat       = "/v1/chat/completions"
	PathEmbeddings = "/v1/embeddings"
	PathModels     = "/v1/models"
)

// Request is one request the server received.
type Request struct {
	// Seq is the arrival order, from 0.
	Seq    int
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
	Time   time.Time
}

// Chat decodes the body as a chat completions request.
func (r Request) Chat() (ChatRequest, error) { return DecodeChatRequest(r.Body) }

// Embeddings decodes the body as an embeddings request.
func (r Request) Embeddings() (EmbeddingsRequest, error) { return DecodeEmbeddingsRequest(r.Body) }

// Handler answers a request that no rejection option or scripted response answered.
type Handler func(r Request) Response

// Option configures a Server.
type Option func(*Server)

// WithChatHandler sets the handler of /v1/chat/completions.
func WithChatHandler(h Handler) Option { return func(s *Server) { s.chat = h } }

// WithEmbeddingsHandler sets the handler of /v1/embeddings.
func WithEmbeddingsHandler(h Handler) Option { return func(s *Server) { s.embed = h } }

// WithEmbeddingDim sets the vector length of the default embeddings handler (default 8). A request
// with a "dimensions" parameter gets that length instead.
func WithEmbeddingDim(dim int) Option { return func(s *Server) { s.dim = dim } }

// WithModels sets the ids listed by GET /v1/models (default DefaultModel).
func WithModels(ids ...string) Option { return func(s *Server) { s.models = ids } }

// RejectJSONSchema makes chat requests with response_format type json_schema fail with
// RejectJSONSchemaResponse, like servers without structured-output support.
func RejectJSONSchema() Option { return func(s *Server) { s.rejectSchema = true } }

// RejectResponseFormat makes chat requests with any response_format fail with
// RejectResponseFormatResponse.
func RejectResponseFormat() Option { return func(s *Server) { s.rejectFormat = true } }

// RequireAPIKey makes every request without "Authorization: Bearer <key>" or "api-key: <key>"
// fail with 401.
func RequireAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// Server is a running test server. Its methods are safe for concurrent use.
type Server struct {
	srv  *httptest.Server
	done chan struct{}
	once sync.Once

	chat, embed  Handler
	dim          int
	models       []string
	rejectSchema bool
	rejectFormat bool
	apiKey       string

	mu       sync.Mutex
	requests []Request
	queues   map[string][]Response
}

// NewServer starts a server and closes it when the test ends.
func NewServer(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{done: make(chan struct{}), dim: 8, models: []string{DefaultModel}, queues: map[string][]Response{}}
	s.chat = defaultChat
	s.embed = s.defaultEmbed
	for _, o := range opts {
		o(s)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// URL returns the API base URL, ending in /v1 (use it as llm.Config.BaseURL).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close stops the server; delayed responses in flight are abandoned. Safe to call more than once.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.done)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// EnqueueChat scripts the next answers of /v1/chat/completions, consumed in order.
func (s *Server) EnqueueChat(rs ...Response) { s.Enqueue(PathChat, rs...) }

// EnqueueEmbeddings scripts the next answers of /v1/embeddings, consumed in order.
func (s *Server) EnqueueEmbeddings(rs ...Response) { s.Enqueue(PathEmbeddings, rs...) }

// Enqueue scripts the next answers of any path.
func (s *Server) Enqueue(path string, rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queues[path] = append(s.queues[path], rs...)
}

// Pending returns how many scripted answers of path are not consumed yet.
func (s *Server) Pending(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queues[path])
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// RequestsTo returns the requests received on path (e.g. PathChat), in arrival order.
func (s *Server) RequestsTo(path string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// ChatRequests returns the decoded chat requests received so far; undecodable bodies are skipped.
func (s *Server) ChatRequests() []ChatRequest {
	var out []ChatRequest
	for _, r := range s.RequestsTo(PathChat) {
		if cr, err := r.Chat(); err == nil {
			out = append(out, cr)
		}
	}
	return out
}

func (s *Server) serve(w http.ResponseWriter, hr *http.Request) {
	body, _ := io.ReadAll(hr.Body)
	s.mu.Lock()
	req := Request{Seq: len(s.requests), Method: hr.Method, Path: hr.URL.Path, Query: hr.URL.Query(), Header: hr.Header.Clone(), Body: body, Time: time.Now()}
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	s.write(w, hr, s.answer(req))
}

func (s *Server) answer(req Request) Response {
	if s.apiKey != "" {
		auth := req.Header.Get("Authorization")
		if auth != "Bearer "+s.apiKey && req.Header.Get("api-key") != s.apiKey {
			return Error(http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided.", "", "invalid_api_key")
		}
	}
	var h Handler
	switch {
	case req.Path == PathChat && req.Method == http.MethodPost:
		if s.rejectSchema || s.rejectFormat {
			if cr, err := req.Chat(); err == nil && cr.ResponseFormat != nil {
				if s.rejectFormat {
					return RejectResponseFormatResponse()
				}
				if cr.ResponseFormat.Type == "json_schema" {
					return RejectJSONSchemaResponse()
				}
			}
		}
		h = s.chat
	case req.Path == PathEmbeddings && req.Method == http.MethodPost:
		h = s.embed
	case req.Path == PathModels && req.Method == http.MethodGet:
		h = s.listModels
	}
	s.mu.Lock()
	if q := s.queues[req.Path]; len(q) > 0 {
		r := q[0]
		s.queues[req.Path] = q[1:]
		s.mu.Unlock()
		return r
	}
	s.mu.Unlock()
	if h == nil {
		return Error(http.StatusNotFound, "invalid_request_error", "Unknown request URL: "+req.Method+" "+req.Path, "", "unknown_url")
	}
	return h(req)
}

func (s *Server) write(w http.ResponseWriter, hr *http.Request, r Response) {
	if r.Delay > 0 {
		t := time.NewTimer(r.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-hr.Context().Done():
			return
		case <-s.done:
			return
		}
	}
	for k, vs := range r.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	ct := r.ContentType
	if ct == "" {
		ct = "application/json"
	}
	w.Header().Set("Content-Type", ct)
	status := r.Status
	if status == 0 {
		status = http.StatusOK
	}
	if r.Truncate {
		w.Header().Set("Content-Length", strconv.Itoa(len(r.Body)))
		w.WriteHeader(status)
		_, _ = w.Write(r.Body[:len(r.Body)/2])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		// Aborting the handler makes net/http drop the connection without completing the body.
		panic(http.ErrAbortHandler)
	}
	w.WriteHeader(status)
	_, _ = w.Write(r.Body)
}

func defaultChat(req Request) Response {
	cr, err := req.Chat()
	if err != nil {
		return BadRequest("We could not parse the JSON body of your request.", "")
	}
	if cr.ResponseFormat != nil && cr.ResponseFormat.Type != "text" {
		return Completion{Content: "{}", Model: cr.Model}.Response()
	}
	return Completion{Content: "ok", Model: cr.Model}.Response()
}

func (s *Server) defaultEmbed(req Request) Response {
	er, err := req.Embeddings()
	if err != nil {
		return BadRequest(err.Error(), "input")
	}
	dim := s.dim
	if er.Dimensions != nil {
		dim = *er.Dimensions
	}
	return FakeEmbeddings(er.Model, er.Input, dim)
}

func (s *Server) listModels(Request) Response {
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range s.models {
		list.Data = append(list.Data, model{ID: id, Object: "model", OwnedBy: "openaitest"})
	}
	return jsonResponse(http.StatusOK, list)
}
