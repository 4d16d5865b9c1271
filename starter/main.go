// Command navi is Navi's command line: ask the agent, inspect runs, load tool catalogs, and run
// the local development stack.
//
//	navi ask "<query>"          start a query workflow, print its ID and UI link, wait for the result
//	navi show <workflow-id>     status, search attributes, live state or result of a run
//	navi tools load <file>      load a native JSON or YAML tool catalog into the graph
//	navi dev up|down|status     the local stack: Temporal (with UI), Neo4j, the worker
//
// Connection settings come from NAVI_* environment variables or flags; see `navi <command> -h`.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
)

const usage = `navi: durable tool orchestration on Temporal

usage:
  navi ask [flags] "<query>"      start a query workflow and wait for its result
  navi show [flags] <workflow-id> show a run: status, search attributes, state or result
  navi tools load [flags] <file>  load a native JSON or YAML tool catalog into the Neo4j graph
  navi dev up [flags]             start the local stack (Temporal + UI, Neo4j, worker)
  navi dev down [flags]           stop it
  navi dev status [flags]         say what runs

Run "navi <command> -h" for the flags of a command.
`

// errUsage marks errors caused by how the command was called; they exit with status 2.
var errUsage = errors.New("usage")

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "ask":
		err = ask(args, os.Stdout)
	case "show":
		err = show(args, os.Stdout)
	case "tools":
		err = tools(args)
	case "dev":
		err = dev(args)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return
	default:
		err = fmt.Errorf("%w: unknown command %q", errUsage, cmd)
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
