// Command navi is Navi's command line: ask the agent, answer its questions, inspect, list,
// replay and rerun runs, import tool catalogs, and run the local development stack.
//
//	navi ask [flags] "<query>"       start a query workflow, print its ID and UI link, wait for the
//	                                 result, printing any question the agent asks on the way
//	navi answer <workflow-id> "<text>"  answer the question a run waits on
//	navi show <workflow-id>          status, search attributes, live state as a trace, result
//	navi list [flags]                recent runs, filtered by status, planner, tool or a raw query
//	navi replay <workflow-id>        replay a run's history on this code: the determinism check
//	navi rerun <workflow-id>         start a new run with the input of an old one
//	navi tools import <file|URL>     import a catalog, a spec or an MCP server as a source of APIs
//	navi demo                        run the tool-world demo queries (what make run does)
//	navi schedule retrain --every 1h create or update the Temporal Schedule that retrains the graph model
//	navi bench [flags]               run a task suite under the paper's ablation variants and the
//	                                 failure scenario, with a simulated user; write the reports
//	navi eval retrieval [flags]      rank the dev sets' APIs with each retrieval method; write the reports
//	navi codec-key [id]              print a new payload encryption key
//	navi codec-server [flags]        decode encrypted payloads for the Temporal UI and CLI
//	navi llm-sim [flags]             serve a simulated LLM planner that errs at a set rate
//	navi dev up|down|status|logs     the local stack: Temporal (with UI), Neo4j, the worker
//
// Connection settings come from NAVI_* environment variables or flags; see `navi <command> -h`.
// Flags may come before or after the arguments; "--" ends them.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

const usage = `navi: durable tool orchestration on Temporal

usage:
  navi ask [flags] "<query>"            start a query workflow and wait for its result; prints the
                                        agent's questions as they come (answer with navi answer)
      -planner graph-first|llm  -search alphabeta|heuristic  -max-steps N
      -clarify-deadline 1h  -id ID  -wait=false  -json  -timeout 10m
  navi answer [flags] <workflow-id> "<text>"
                                        answer the question a run waits on
  navi rate <workflow-id> good|bad ["note"]
                                        the user's verdict on a run, also days later: its calls
                                        recorded again as successes (good) or failures (bad)
  navi show [flags] <workflow-id>       a run: status, search attributes, trace, plan, result (-json)
  navi list [flags]                     recent runs: -status S -planner P -tool API -query '<visibility query>'
                                        -limit N
  navi replay [flags] <workflow-id>     replay a run's history on the current code (-run RUN-ID, -v;
                                        -file history.json for an exported history instead); exit
                                        status 1 when the code is not deterministic for it
  navi rerun [flags] <workflow-id>      start a new run with the same input (-wait, -json, -timeout)
  navi graph reembed [flags]            move the graph in Neo4j to another embedder in place, keeping every
                                        learned statistic (the way out of a "schema mismatch")
      -embedder minilm|hashed  -every 1000  -timeout 1h
  navi tools show <api>                 one API: description, endpoint or MCP server, effect, auth, inputs and
                                        outputs, status, statistics, and what users called it (the requests of
                                        answered runs it served)
  navi tools list                       the graph's sources: APIs (active, retired) and where they come from
  navi tools remove <source>            take a source out of the graph, with its APIs and their edges
  navi tools import [flags] <file|URL>  import a tool catalog, an OpenAPI or Swagger spec (file or URL), or an MCP
                                        server (mcp+stdio:<command>, mcp+http(s)://…) as a source of APIs named
                                        <source>.<operation>; operations gone since its last import are retired
      -as NAME  -replace  -strict  -base-url URL  -max-bytes N  -format native|openapi|swagger|mcp
  navi demo [flags]                     run the tool-world demo: five queries (one to three calls, a
                                        question answered for you, a broken tool recovered)
  navi bench [flags]                    run tool-world tasks through the stack under the ablation variants
                                        (and the failure scenario), answering the agent's questions as a
                                        simulated user; reports in -out (JSON, Markdown, PNG)
      -n 150  -seed 1  -tasks file.jsonl  -concurrency 4  -batches 5  -variants a,b  -failures=false
      -planner graph-first|llm  -out results/bench
  navi eval retrieval [flags]           rank the APIs of public dev sets (StableToolBench, RestBench,
                                        API-Bank, tool world, questions about four public specs) and of
                                        the held-out questions about five others with each retrieval
                                        method, in process
                                        (and through the Neo4j store with -neo4j: the @neo4j methods);
                                        reports in -out (JSON, Markdown), the summary on stdout
      -data ../shared/data  -sets a,b  -methods a,b  -toolworld-n 300  -seed 1  -limit N
      -out results/eval  -json  -neo4j
  navi eval chains [flags]              data flow on API-Bank level-3, RestBench TMDB and the tool world: link
                                        coverage and precision, and exact chain recovery from the gold final
                                        API, for the target alone, exact-name linking and Navi's links
      -data ../shared/data  -sets apibank,restbench,toolworld  -toolworld-n 300  -seed 1
      -out results/eval  -json
  navi eval agent [flags]               the hand-written questions about the tool world through the agent on
                                        the running stack (no feedback; nobody answers its questions): the
                                        share that ends with the expected chain, question or "no tool"
      -questions file.jsonl  -search alphabeta  -concurrency 2  -clarify-deadline 2s  -reset=true  -out results/eval
  navi eval lexicon [flags]             the entries of the English word lists in the packages that read requests
                                        (twnm/subgoal, planner, twnm/recall), counted from the source
      -src .  -out results/eval
  navi eval values [flags]              whether the values users state reach the inputs of the calls that took
                                        them: API-Bank's calls and the tool world's, value extraction alone
      -data ../shared/data  -sets apibank,toolworld  -toolworld-n 300  -seed 1  -out results/eval
  navi schedule retrain [flags]         create or update the Schedule that retrains the graph model:
                                        -every 1h  -trigger (also run once now)  -train-queue Q
  navi codec-key [id]                   print a new AES-256 key for NAVI_CODEC_KEYS ("id=base64")
  navi codec-server [flags]             decode encrypted payloads for the Temporal UI and CLI (keys from
                                        NAVI_CODEC_KEYS, bearer token from NAVI_CODEC_SERVER_TOKEN)
      -addr 127.0.0.1:8234  -origin http://localhost:8233
  navi llm-sim [flags]                  serve a simulated LLM planner (OpenAI-compatible, at /v1) that
                                        errs like a weak model: -addr 127.0.0.1:8400  -error-rate 0.2  -seed 1
  navi dev up [flags]                   start the local stack (Temporal + UI, Neo4j, tool world, worker)
  navi dev down [flags]                 stop it
  navi dev status [flags]               say what runs
  navi dev logs [flags]                 the tail of each log

Run "navi <command> -h" for the flags of a command.
`

// errUsage marks errors caused by how the command was called; they exit with status 2.
var errUsage = errors.New("usage")

// streams are where a command writes: results on out, progress and notices on err (so that
// -json output on out stays one JSON document).
type streams struct {
	out, err io.Writer
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	commands := map[string]func([]string, streams) error{
		"ask":          ask,
		"answer":       answer,
		"rate":         rate,
		"show":         show,
		"list":         list,
		"replay":       replay,
		"rerun":        rerun,
		"tools":        tools,
		"demo":         demo,
		"schedule":     schedule,
		"bench":        benchmark,
		"graph":        graphCmd,
		"eval":         evalCmd,
		"dev":          func(args []string, _ streams) error { return dev(args) },
		"codec-server": codecServer,
		"codec-key":    codecKey,
		"llm-sim":      llmSim,
	}
	cmd := os.Args[1]
	if cmd == "help" || cmd == "-h" || cmd == "--help" {
		fmt.Print(usage)
		return
	}
	err := fmt.Errorf("%w: unknown command %q", errUsage, cmd)
	if run, ok := commands[cmd]; ok {
		err = run(os.Args[2:], streams{out: os.Stdout, err: os.Stderr})
	}
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(2)
	case errors.Is(err, errUsage):
		fmt.Fprintf(os.Stderr, "navi: %v\n\n%s", err, usage)
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "navi: %v\n", err)
		os.Exit(1)
	}
}
