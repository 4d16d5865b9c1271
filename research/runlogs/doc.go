// Package runlogs imports the invocation logs of public tool-use data sets as invlog runs:
// API-Bank's dialogues and level-3 chains, and ToolBench's trajectories. It is research code,
// beside the product path: the chain evaluation (research/chaineval) and the HGT's data-set
// tests read it; Navi's workflows and worker never do. Links are not filled: call invlog.Link.
package runlogs
