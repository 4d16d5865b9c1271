package activities

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/naviagent/navi/contract"
	"github.com/naviagent/navi/toolcall"
	"github.com/naviagent/navi/toolspec"
)

// A candidate whose plan calls an API the worker has no secret for is no candidate: the run
// would fail on it, recombine through siblings that need the same secret, and ask the user for
// an input no call could use. With none left, the result says which secret to set.
func TestDropUncallable(t *testing.T) {
	keyed := func(name, secret string) toolspec.API {
		return toolspec.API{Name: name, Auth: &toolspec.Auth{Scheme: toolspec.AuthHeader, Name: "X-Token", Secret: secret}}
	}
	apis := map[string]toolspec.API{
		"figma.getTeamProjects": keyed("figma.getTeamProjects", "figma.pat"),
		"figma.getProjectFiles": keyed("figma.getProjectFiles", "figma.pat"),
		"maps.geocode":          keyed("maps.geocode", "maps.key"),
		"world.SearchHotels":    {Name: "world.SearchHotels"},
	}
	candidate := func(steps ...string) contract.Candidate {
		c := contract.Candidate{API: steps[len(steps)-1]}
		for _, s := range steps {
			c.Plan.Steps = append(c.Plan.Steps, toolspec.Step{API: s})
		}
		return c
	}
	t.Setenv(toolcall.SecretEnv("maps.key"), "k")
	t.Setenv(toolcall.SecretEnv("figma.pat"), "")
	tools := &toolcall.Client{Secrets: toolcall.EnvSecrets{}}

	res := RetrieveResult{APIs: apis, Candidates: []contract.Candidate{
		candidate("figma.getTeamProjects", "figma.getProjectFiles"), candidate("maps.geocode"), candidate("world.SearchHotels")}}
	dropUncallable(&res, tools)
	var left []string
	for _, c := range res.Candidates {
		left = append(left, c.API)
	}
	assert.Equal(t, []string{"maps.geocode", "world.SearchHotels"}, left, "a chain through an unset secret is dropped, the rest kept")
	assert.Empty(t, res.Refused)

	res = RetrieveResult{APIs: apis, Candidates: []contract.Candidate{candidate("figma.getTeamProjects", "figma.getProjectFiles")}}
	dropUncallable(&res, tools)
	assert.Empty(t, res.Candidates)
	assert.Contains(t, res.Refused, "secret figma.pat")
	assert.Contains(t, res.Refused, "NAVI_SECRET_FIGMA_PAT", "says where to set it")

	res = RetrieveResult{APIs: apis, Candidates: []contract.Candidate{candidate("figma.getProjectFiles")}}
	dropUncallable(&res, &toolcall.Client{})
	assert.Contains(t, res.Refused, "the worker has no secret source")
}
