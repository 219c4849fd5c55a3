package mcpserver

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/client"
)

// HTTPPattern is the route of the streamable HTTP transport: one MCP endpoint per workspace, beside the
// workspace's other /v1 endpoints.
const HTTPPattern = "/v1/workspaces/{ws}/mcp"

// inProcessBase is the base URL of the in-process API client; the host is never resolved.
const inProcessBase = "http://mneme.in-process"

// maxInProcessResponse bounds a /v1 response the in-process transport buffers (pkg/client reads at most
// 64 MiB of any response).
const maxInProcessResponse = 64 << 20

// HTTPHandler serves MCP's streamable HTTP transport at HTTPPattern. Each request is authenticated by
// authn.Authenticate — the entry point the /v1 write handlers use first: the X-Mneme-Agent header, and outside
// development mode the bearer key, its workspace and its agent binding — before the SDK reads it; a refused
// request gets the same status and JSON error as over /v1. Each tool call then goes to apiMux (the process's
// own /v1 routes) in process, carrying the request's Authorization and X-Mneme-Agent headers, so the /v1
// handler of that call checks them again exactly as for any HTTP caller (workspace existence, write
// permission, erasure authorization): the MCP endpoint adds no authority of its own. The rate limit is charged
// once per MCP request, by the first check: the in-process calls are auth.Precharged.
//
// The transport is stateless: every POST gets a fresh server bound to that request's credential, no MCP
// session outlives it, and GET (a server-to-client event stream) is answered 405, which clients accept.
func HTTPHandler(authn *auth.Authenticator, apiMux *http.ServeMux, o Options, log *slog.Logger) http.Handler {
	transport := &inProcess{mux: apiMux}
	sdk := mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		ws := r.PathValue("ws")
		opts := []client.Option{client.WithHTTPClient(&http.Client{Transport: transport}), client.WithTimeout(0)}
		if key, ok := bearerKey(r.Header.Get("Authorization")); ok {
			opts = append(opts, client.WithKey(key))
		}
		c, err := client.New(inProcessBase, r.Header.Get(api.HeaderAgent), opts...)
		if err != nil {
			return nil // unreachable: the agent header was checked before; the SDK answers 400
		}
		return New(ws, c, o)
	}, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: log, MaxRequestBodyBytes: maxMessageBytes})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := authn.Authenticate(r, r.PathValue("ws")); err != nil {
			var ae *auth.Error
			if errors.As(err, &ae) && ae.Status >= 500 && log != nil {
				log.WarnContext(r.Context(), "mcp: auth lookup failed", "err", err)
			}
			auth.WriteError(w, err)
			return
		}
		sdk.ServeHTTP(w, r)
	})
}

// bearerKey returns the key of an "Authorization: Bearer <key>" header value.
func bearerKey(h string) (string, bool) {
	scheme, key, ok := strings.Cut(h, " ")
	key = strings.TrimSpace(key)
	if !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
		return "", false
	}
	return key, true
}

// inProcess is an http.RoundTripper that serves a request with the process's own mux instead of a socket:
// the request reaches the same handler (and its authentication) as one that came over the network.
type inProcess struct {
	mux *http.ServeMux
}

func (t *inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	// A server-side request: the shape net/http's server gives handlers.
	r := new(http.Request)
	*r = *req
	r.RequestURI = req.URL.RequestURI()
	r.Proto, r.ProtoMajor, r.ProtoMinor = "HTTP/1.1", 1, 1
	r.RemoteAddr = "in-process"
	// The MCP request that made this call was authenticated and charged to the caller's rate limit once
	// (HTTPHandler); the /v1 handler authenticates the call again but must not charge it a second time.
	r = r.WithContext(auth.Precharged(req.Context()))
	if r.Body == nil {
		r.Body = http.NoBody
	}
	if _, pattern := t.mux.Handler(r); pattern == "" {
		return nil, fmt.Errorf("%s %s is %w: run its service in this process, or point `mneme mcp` at a deployment that serves every /v1 route",
			req.Method, req.URL.Path, errNotServed)
	}
	w := &bufferedResponse{header: http.Header{}}
	t.mux.ServeHTTP(w, r)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.overflow {
		return nil, fmt.Errorf("%s %s: the response exceeds %d bytes", req.Method, req.URL.Path, maxInProcessResponse)
	}
	return &http.Response{
		Status:        strconv.Itoa(w.status) + " " + http.StatusText(w.status),
		StatusCode:    w.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.header,
		Body:          io.NopCloser(bytes.NewReader(w.body.Bytes())),
		ContentLength: int64(w.body.Len()),
		Request:       req,
	}, nil
}

// bufferedResponse is the http.ResponseWriter of an in-process request.
type bufferedResponse struct {
	header   http.Header
	status   int
	body     bytes.Buffer
	overflow bool
}

func (w *bufferedResponse) Header() http.Header { return w.header }

func (w *bufferedResponse) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *bufferedResponse) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.body.Len()+len(p) > maxInProcessResponse {
		w.overflow = true
		return 0, errors.New("response too large")
	}
	return w.body.Write(p)
}
