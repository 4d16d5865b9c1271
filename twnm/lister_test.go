package twnm

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// at gives a an endpoint and a source, and marks its inputs named in the path as path inputs.
func at(a API, source, method, path string) API {
	a.Source, a.Endpoint = source, &Endpoint{Method: method, Path: path}
	for i, p := range a.Inputs {
		if slices.Contains(pathSegments(path), "{"+p.Name+"}") {
			a.Inputs[i].In = "path"
		}
	}
	return a
}

func TestListKeyAndPickKey(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lister   API
		consumer API
		input    string
		lists    bool
	}{
		{"the collection before the input", at(tool("Sites", "", "id"), "n", "GET", "/sites"),
			at(tool("Forms", "site_id", "id"), "n", "GET", "/sites/{site_id}/forms"), "site_id", true},
		{"a nested collection, its variable named apart", at(tool("Runs", "thread_id", "id"), "o", "GET", "/threads/{thread_id}/runs"),
			at(tool("Steps", "threadId run_id", "id"), "o", "GET", "/threads/{threadId}/runs/{run_id}/steps"), "run_id", true},
		{"a trailing slash", at(tool("Sites", "", "id"), "n", "GET", "/sites/"),
			at(tool("Site", "site_id", "id"), "n", "DELETE", "/sites/{site_id}"), "site_id", true},
		{"another source", at(tool("Sites", "", "id"), "m", "GET", "/sites"),
			at(tool("Forms", "site_id", "id"), "n", "GET", "/sites/{site_id}/forms"), "site_id", false},
		{"a write", at(tool("Sites", "", "id"), "n", "POST", "/sites"),
			at(tool("Forms", "site_id", "id"), "n", "GET", "/sites/{site_id}/forms"), "site_id", false},
		{"a list that needs more than its path", at(tool("Artists", "ids", "id"), "s", "GET", "/artists"),
			at(tool("Albums", "id", "id"), "s", "GET", "/artists/{id}/albums"), "id", false},
		{"an input after a variable", at(tool("Sites", "", "id"), "n", "GET", "/sites"),
			at(tool("Builds", "site_id account_id", "id"), "n", "GET", "/sites/{site_id}/{account_id}/builds"), "account_id", false},
		{"an identifier opening the path, by its name", at(tool("Accounts", "", "id"), "n", "GET", "/accounts"),
			at(tool("Builds", "account_id", "id"), "n", "GET", "/{account_id}/builds"), "account_id", true},
		{"an identifier opening the path, in its plural", at(tool("Companies", "", "id"), "n", "GET", "/companies"),
			at(tool("Builds", "company_id", "id"), "n", "GET", "/{company_id}/builds"), "company_id", true},
		{"an identifier opening the path, another collection", at(tool("Sites", "", "id"), "n", "GET", "/sites"),
			at(tool("Builds", "account_id", "id"), "n", "GET", "/{account_id}/builds"), "account_id", false},
		{"an identifier no path holds, by its name", at(tool("Files", "", "id"), "o", "GET", "/files"),
			at(tool("AddFile", "vector_store_id file_id", "id"), "o", "POST", "/vector_stores/{vector_store_id}/files"), "file_id", true},
		{"a name opening the path", at(tool("Accounts", "", "id"), "n", "GET", "/accounts"),
			at(tool("Env", "account_slug", "id"), "n", "GET", "/{account_slug}/env"), "account_slug", false},
		{"another collection", at(tool("Zones", "", "id"), "n", "GET", "/dns_zones"),
			at(tool("Forms", "site_id", "id"), "n", "GET", "/sites/{site_id}/forms"), "site_id", false},
		{"no path", tool("Sites", "", "id"), tool("Forms", "site_id", "id"), "site_id", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.lists, ListKey(tc.lister) != "" && ListKey(tc.lister) == PickKey(tc.consumer, tc.input))
			assert.Equal(t, tc.lists, Listed([]API{tc.lister, tc.consumer})(tc.consumer, tc.input) != "")
		})
	}
}

// A site's forms need the site's id. A DNS zone outputs a site_id (the site it serves) and
// shares the input's name; the list of sites outputs only each site's id, but it lists the
// collection the forms' path picks the site from, so it binds the input, through its items'
// id. Where it may not be called, the zone's site_id does as before.
func TestSearchTakesAPathInputFromItsLister(t *testing.T) {
	forms := at(tool("Forms", "site_id", "form_id"), "n", "GET", "/sites/{site_id}/forms")
	zones := at(tool("Zones", "", "site_id"), "n", "GET", "/dns_zones")
	sites := at(tool("Sites", "", "id name"), "n", "GET", "/sites")
	for _, s := range []Searcher{DefaultAlphaBeta(), DefaultHeuristic()} {
		for _, tc := range []struct {
			exclude  string
			want     []string
			wantFrom string
		}{
			{"", []string{"Sites", "Forms"}, "id"},
			{"Sites", []string{"Zones", "Forms"}, "site_id"},
		} {
			t.Run(fmt.Sprintf("%T/without %q", s, tc.exclude), func(t *testing.T) {
				g := graphOf(t, forms, zones, sites)
				req := SearchRequest{Target: apiID(t, g, "Forms")}
				if tc.exclude != "" {
					req.Exclude = map[NodeID]bool{apiID(t, g, tc.exclude): true}
				}
				p := searchPlan(t, s, g, req)
				assert.Equal(t, tc.want, stepNames(p))
				require.NoError(t, ResolvePlan(p, g))
				assert.Equal(t, tc.wantFrom, p.Steps[len(p.Steps)-1].Bindings[0].FromOutput)
			})
		}
	}
	assert.Equal(t, "sites", Listed([]API{forms, sites})(forms, "site_id"), "the collection's name")
	g := graphOf(t, forms, zones, sites)
	suppliers := g.RequiredSuppliers(apiID(t, g, "Forms"))
	require.Len(t, suppliers, 1)
	for _, ss := range suppliers {
		require.Len(t, ss, 1)
		assert.Equal(t, apiID(t, g, "Sites"), ss[0].API, "recall reads the lister as the input's only producer")
	}
}

func TestPluralIsUndoneBySingular(t *testing.T) {
	for _, tc := range []struct{ one, many string }{
		{"account", "accounts"}, {"file", "files"}, {"address", "addresses"}, {"box", "boxes"},
		{"match", "matches"}, {"company", "companies"}, {"key", "keys"},
	} {
		assert.Equal(t, tc.many, plural(tc.one), tc.one)
		assert.Equal(t, tc.one, singular(tc.many), tc.many)
	}
}
