package main

import (
	"fmt"
	"net"

	"github.com/naviagent/navi/internal/config"
	"github.com/naviagent/navi/planner/llm/llmsim"
)

// llmSim serves the simulated LLM planner (package llmsim) as an OpenAI-compatible endpoint:
// point a worker's NAVI_LLM_BASE_URL at http://<addr>/v1 to run the LLM planner without a
// model, erring at -error-rate (POST /admin/options changes it while it runs).
func llmSim(args []string, s streams) error {
	c := newCommand("llm-sim")
	addr := c.fs.String("addr", config.Getenv("NAVI_LLM_SIM_ADDR", "127.0.0.1:8400"), "address to listen on (NAVI_LLM_SIM_ADDR)")
	rate := c.fs.Float64("error-rate", 0, "share of answers that err like a weak model's: a made-up tool, a wrong parameter, invalid JSON, a premature answer")
	seed := c.fs.Uint64("seed", 1, "seed of which answers err and how")
	if _, err := c.parse(args, 0, 0, "no arguments: navi llm-sim [-addr host:port] [-error-rate r] [-seed n]"); err != nil {
		return err
	}
	sim, err := llmsim.New(llmsim.Options{ErrorRate: *rate, Seed: *seed})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("llm-sim: %w", err)
	}
	fmt.Fprintf(s.err, "navi llm-sim: a simulated LLM planner on http://%s/v1, erring at %.2f (seed %d)\n", ln.Addr(), *rate, *seed)
	if err := serveUntilSignal(ln, sim); err != nil {
		return fmt.Errorf("llm-sim: %w", err)
	}
	return nil
}
