// Package twnm is the Tool World Navigation Model of NaviAgent as pure Go: tool catalogs, the
// heterogeneous tool graph of API and parameter nodes, its statistics, graph search and
// recombination. It knows nothing of Temporal or Neo4j, so it is tested on its own; the neo4j
// package stores its structures and the workflows call its pure functions.
package twnm
