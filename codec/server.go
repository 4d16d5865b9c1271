package codec

import (
	"crypto/subtle"
	"net/http"
	"slices"
	"strings"

	"go.temporal.io/sdk/converter"
)

// MaxRequestBytes bounds a request to the codec server: a history's payloads are at most 2 MiB
// each on a default Temporal server, and the UI decodes them a few at a time.
const MaxRequestBytes = 16 << 20

// ServerOptions configures Handler.
type ServerOptions struct {
	// Origins are the web origins allowed to call the server from a browser (CORS): the
	// Temporal UI's, such as "http://localhost:8233". A browser request from another origin
	// is refused.
	Origins []string
	// Token, when set, must come with every encode or decode request as
	// "Authorization: Bearer <token>" (the Temporal CLI's --codec-auth). Empty means none is
	// asked: bind the server to this machine then.
	Token string
}

// Handler serves c by Temporal's codec server protocol: POST .../encode and .../decode with
// Payloads as JSON (any path prefix, such as /{namespace}), plus GET /healthz. Browsers get
// the CORS answers the Temporal UI needs, from the allowed origins only.
func Handler(c *Codec, o ServerOptions) http.Handler {
	codec := converter.NewPayloadCodecHTTPHandler(c)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/healthz" {
			w.WriteHeader(http.StatusOK)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			if !slices.Contains(o.Origins, origin) {
				http.Error(w, "origin "+origin+" is not allowed (navi codec-server -origin)", http.StatusForbidden)
				return
			}
			h := w.Header()
			h.Set("Access-Control-Allow-Origin", origin)
			h.Set("Access-Control-Allow-Credentials", "true")
			h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
			h.Add("Vary", "Origin")
			if r.Method == http.MethodOptions { // preflight: the browser asks before it sends
				w.WriteHeader(http.StatusNoContent)
				return
			}
		}
		if o.Token != "" {
			got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
			if !ok || subtle.ConstantTimeCompare([]byte(got), []byte(o.Token)) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="navi codec"`)
				http.Error(w, "a bearer token is required", http.StatusUnauthorized)
				return
			}
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		codec.ServeHTTP(w, r)
	})
}
