package toolcall

import (
	"context"
	"fmt"
	"net/http"
	"regexp"

	"github.com/naviagent/navi/toolspec"
)

// ProbeValue fills the path parameters of a probe request.
const ProbeValue = "navi-probe"

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// Probe asks whether a pruned API answers again (NaviAgent's probe before reactivation),
// without inputs a real call would need: it sends the endpoint's method to its URL with path
// parameters filled by ProbeValue and no query or body. A tool that is up answers, if only to
// reject the missing inputs (2xx or 4xx other than 408, 410 and 429); one that is down, gone,
// rate limited or unreachable does not. Alive says which; status is the HTTP status (0 when
// no answer came).
func (c *Client) Probe(ctx context.Context, api string, ep *toolspec.Endpoint) (alive bool, status int, err error) {
	if ep == nil || ep.Method == "" {
		return false, 0, notCallable(api, "no HTTP endpoint")
	}
	raw, err := endpointURL(api, ep)
	if err != nil {
		return false, 0, err
	}
	req, err := http.NewRequestWithContext(ctx, ep.Method, pathParam.ReplaceAllString(raw, ProbeValue), nil)
	if err != nil {
		return false, 0, fmt.Errorf("probe %s: %w", api, err)
	}
	req.Header.Set("Accept", "application/json")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	resp, _, err := c.send(req)
	if err != nil {
		return false, 0, nil // no answer: not alive, and not an error of the probe itself
	}
	switch s := resp.StatusCode; {
	case s == http.StatusRequestTimeout, s == http.StatusGone, s == http.StatusTooManyRequests, s >= 500:
		return false, s, nil
	default:
		return true, s, nil
	}
}
