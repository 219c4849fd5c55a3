package query

import (
	"embed"
	"io/fs"
	"net/http"
)

// The timeline page: static files (plain HTML, CSS and JavaScript modules, no build step) embedded in the
// binary. The page holds no authority: it calls the /v1 API from the browser with the workspace, agent and key
// the person enters, and the API checks them as for any agent.
//
//go:embed web/timeline
var webFiles embed.FS

// TimelinePath is where the page is served.
const TimelinePath = "/timeline/"

// pageCSP confines the page to its own files and the API: no inline script or style, no other origin, no
// framing — so even content that slipped past the page's escaping could neither run nor load anything.
const pageCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// timelinePage serves the page's files under TimelinePath.
func timelinePage() http.Handler {
	sub, err := fs.Sub(webFiles, "web/timeline")
	if err != nil {
		panic(err) // the directory is embedded above; its absence is a build error, not a runtime one
	}
	files := http.StripPrefix("/timeline", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", pageCSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		files.ServeHTTP(w, r)
	})
}
