package app

import (
	"net/http"
	"net/http/pprof"
	"time"
)

// profileHandler serves Go's runtime profiles under /debug/pprof/ on a mux of its own, so nothing else
// registered on http.DefaultServeMux is exposed with them.
func profileHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	return mux
}

// newProfileServer serves profileHandler. A CPU profile or an execution trace runs as long as its seconds
// parameter asks, so the server has no write timeout; headers must still arrive promptly.
func newProfileServer() *http.Server {
	return &http.Server{Handler: profileHandler(), ReadHeaderTimeout: 10 * time.Second}
}
