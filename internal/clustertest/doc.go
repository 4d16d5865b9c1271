// Package clustertest holds the test of Navi on a Temporal cluster under faults, run by
// `make cluster` (go test -tags cluster) against the cluster that target starts: PostgreSQL,
// two Temporal nodes, two workers, Neo4j and the tool world. While queries run, it kills a
// Temporal node, a worker and PostgreSQL, brings each back, and counts the runs lost, stuck
// and the tool effects done twice.
package clustertest
