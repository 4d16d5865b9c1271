// Package bench is the evaluation harness core behind `navi bench`: it loads tool-world
// tasks, runs them through a Runner under several named variants with bounded concurrency,
// scores every run against the task's gold chain and expected answer, and reports the
// metrics as JSON, Markdown and PNG plots.
//
// The package is pure: it knows nothing of Temporal, Neo4j or the tool servers. The stack
// (a Runner that starts QueryWorkflow with the variant's settings, and phase hooks that
// inject faults) is wired by the caller.
//
// Scoring, for one task and one run:
//
//   - completed: the run ended with status "answered" (workflows.StatusAnswered).
//   - success: the run completed and one API of the run's chain returned every expected
//     field with an equal value (see Succeeded for why any API of the chain, not the last).
//   - node-F1: F1 of the set of APIs in the run's chain against the set in the gold chain.
//   - link-F1: F1 of the run's links (consecutive pairs of its chain) against the gold links
//     (the distinct (from_api, to_api) pairs of the gold flow); see Links.
//
// Aggregates are taken per variant over difficulties (easy, medium, hard, all), phases and
// learning-curve batches; see Metrics for each one's denominator.
package bench
