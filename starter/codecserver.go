package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/naviagent/navi/codec"
	"github.com/naviagent/navi/internal/config"
)

// codecServer serves the payload codec of NAVI_CODEC_KEYS over HTTP, for the Temporal UI
// (Settings → Codec Server, or the embedded UI's codec endpoint) and the Temporal CLI
// (--codec-endpoint, --codec-auth).
func codecServer(args []string, s streams) error {
	c := newCommand("codec-server")
	addr := c.fs.String("addr", config.Getenv("NAVI_CODEC_SERVER_ADDR", "127.0.0.1:8234"), "address to listen on (NAVI_CODEC_SERVER_ADDR)")
	origins := c.fs.String("origin", "", "comma-separated web origins allowed to call it from a browser (default: the origin of -ui)")
	noToken := c.fs.Bool("allow-no-token", false, "listen beyond this machine without NAVI_CODEC_SERVER_TOKEN: only behind a proxy that authenticates, or in a container whose port is published to localhost only")
	if _, err := c.parse(args, 0, 0, "no arguments: navi codec-server [-addr host:port] [-origin URL]"); err != nil {
		return err
	}
	cdc, err := c.cfg.Codec()
	if err != nil {
		return err
	}
	if cdc == nil {
		return errors.New("codec server: no keys: set NAVI_CODEC_KEYS or NAVI_CODEC_KEYS_FILE (navi codec-key makes one)")
	}
	o := codec.ServerOptions{Token: os.Getenv("NAVI_CODEC_SERVER_TOKEN")}
	list := *origins
	if list == "" {
		u, err := url.Parse(c.cfg.UIURL)
		if err != nil || u.Host == "" {
			return fmt.Errorf("%w: -ui %q is no URL to take the allowed origin from; give -origin", errUsage, c.cfg.UIURL)
		}
		list = u.Scheme + "://" + u.Host
	}
	for o2 := range strings.SplitSeq(list, ",") {
		if o2 = strings.TrimRight(strings.TrimSpace(o2), "/"); o2 != "" {
			o.Origins = append(o.Origins, o2)
		}
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("%w: -addr %q: %v", errUsage, *addr, err)
	}
	if o.Token == "" && !config.Loopback(host) && !*noToken {
		return fmt.Errorf("codec server: -addr %s is reachable from other machines: set NAVI_CODEC_SERVER_TOKEN, or listen on 127.0.0.1", *addr)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("codec server: %w", err)
	}
	auth := "no token (this machine only)"
	if o.Token != "" {
		auth = "bearer token from NAVI_CODEC_SERVER_TOKEN"
	}
	fmt.Fprintf(s.err, "navi codec-server: decoding with key %s of %d on http://%s for %s; %s\n",
		cdc.Keys().Active(), len(cdc.Keys().IDs()), ln.Addr(), strings.Join(o.Origins, ", "), auth)
	if err := serveUntilSignal(ln, codec.Handler(cdc, o)); err != nil {
		return fmt.Errorf("codec server: %w", err)
	}
	return nil
}

// serveUntilSignal serves h on ln until an interrupt or SIGTERM, then shuts down within 5 s.
func serveUntilSignal(ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// codecKey prints a new random key for NAVI_CODEC_KEYS.
func codecKey(args []string, s streams) error {
	c := newCommand("codec-key")
	pos, err := c.parse(args, 0, 1, "at most a key ID: navi codec-key [id]")
	if err != nil {
		return err
	}
	id := "k" + time.Now().UTC().Format("20060102")
	if len(pos) == 1 {
		id = pos[0]
	}
	if id == "" || strings.ContainsAny(id, "=,#\n") {
		return fmt.Errorf("%w: key ID %q: want a name without =, comma or #", errUsage, id)
	}
	k, err := codec.NewKey(id)
	if err != nil {
		return err
	}
	fmt.Fprintln(s.out, k)
	return nil
}
