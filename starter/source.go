package main

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
)

// nameSource gives an imported catalog its source: the name it is known by (as, else the
// spec's title or the MCP server's name, as an identifier in lower case), under which a spec's
// or server's APIs are named (<source>.<operation>: two specs' operationIds never collide),
// and the origin its APIs come from (the spec's servers, the MCP server and its folder), by
// which the store tells another spec of the same name from a new version of this one. A
// native catalog names its own APIs and has no origin; as renames only the source. Every API
// is given its source (twnm.API.Source).
func nameSource(cat *twnm.Catalog, kind catalogs.Format, as, location string) (origin string, err error) {
	source := strings.TrimSpace(as)
	if source != "" && catalogs.Identifier(source) != source {
		return "", fmt.Errorf("%w: -as %q: a source name is letters, digits and _ (%q would do)", errUsage, as, catalogs.Identifier(source))
	}
	defer func() { // every API knows its source: plans feed an API from its own first
		for i := range cat.APIs {
			cat.APIs[i].Source = cat.Name
		}
	}()
	switch kind {
	case catalogs.FormatNative:
		if source != "" {
			cat.Name = source
		}
		return "", nil
	case formatMCP:
		source = strings.ToLower(cmp.Or(source, cat.Name))
		for i := range cat.APIs {
			a := &cat.APIs[i]
			a.Name, a.Provider = source+"."+a.MCP.Tool, source
			if origin == "" {
				origin = a.MCP.Server
				if a.MCP.Dir != "" {
					origin += " in " + a.MCP.Dir
				}
			}
		}
	default: // OpenAPI and Swagger
		source = strings.ToLower(cmp.Or(source, catalogs.Identifier(cat.Name)))
		if source == "" {
			return "", fmt.Errorf("%w: the spec has no title to name its source: name it with -as", errUsage)
		}
		var hosts []string
		for i := range cat.APIs {
			a := &cat.APIs[i]
			a.Name, a.Provider = source+"."+a.Name, source
			if a.Check != "" {
				a.Check = source + "." + a.Check
			}
			if u, err := url.Parse(a.Endpoint.BaseURL); err == nil && u.Host != "" && !slices.Contains(hosts, u.Host) {
				hosts = append(hosts, u.Host)
			}
		}
		slices.Sort(hosts)
		origin = strings.Join(hosts, ", ")
		if origin == "" {
			origin = location // no server: the spec's file or URL tells one spec from another
		}
	}
	cat.Name = source
	return origin, nil
}

// maxNamesShown bounds the names a command lists one by one.
const maxNamesShown = 10

// firstNames lists the first maxNamesShown names, then how many more there are.
func firstNames(names []string) string {
	out := strings.Join(names[:min(len(names), maxNamesShown)], ", ")
	if n := len(names) - maxNamesShown; n > 0 {
		out += fmt.Sprintf(" … and %d more", n)
	}
	return out
}
