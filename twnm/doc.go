// Package twnm is the Tool World Navigation Model of NaviAgent as pure Go: tool catalogs, the
// heterogeneous tool graph of API and parameter nodes, its statistics, retrieval, graph
// search, plans and recombination. It knows nothing of Temporal or Neo4j, so it is tested on
// its own; the neo4j package stores its structures and the workflows call its pure functions.
//
// The pieces, in the order a toolchain is made:
//
//   - Catalog, API, Param: what an organisation registers (package toolspec defines them, a
//     leaf the tool client imports alone; importers in twnm/catalogs).
//   - Build and Graph.Integrate: API nodes, parameter nodes unified by semantic clustering
//     (an embed.Embedder on name and description, a type-compatibility check), INPUT_OF and
//     OUTPUTS edges. A new tool joins a built graph in about 0.1 ms.
//   - Graph.Record, Propagate, Prune, SetStatus: execution feedback (from twnm/invlog runs via
//     Feedback) as node and edge counts, the statistical weight of Eq. 4, its propagation over
//     a sliding window (Eq. 14), targeted pruning (Eq. 13) and reactivation.
//   - Graph.Retrieve: the target APIs most similar to a description.
//   - AlphaBeta and Heuristic (Searcher), SearchTargets: the dependency subgraph of each
//     target (Eq. 22 and Eq. 23), targets in parallel.
//   - Subgraph.Tree, Subgraph.Plan: the compact tree for an LLM prompt and the executable plan.
//   - Recombine: the alternative to a plan whose step failed, by substitution, upstream
//     rerouting or subgraph switching.
//
// Graphs are not safe for concurrent mutation; concurrent searches of a built graph are.
package twnm
