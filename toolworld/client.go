package toolworld

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// PostFault sets f on the tool world served at baseURL (POST /admin/faults), as the demo,
// the evaluation and the tests do; Mode ModeNone clears the API's fault.
func PostFault(ctx context.Context, baseURL string, f Fault) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+"/admin/faults", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("set fault on %s: %w (is the tool world running?)", f.API, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
		return fmt.Errorf("set fault on %s: HTTP %d: %s", f.API, resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}
